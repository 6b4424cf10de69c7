/* AudioUnitParameters.h for AUHost's AudioToolbox on Linux: the parameter IDs of Apple's
   units that AUHost provides. Written from Apple's public documentation. */
#ifndef AUHOST_AUDIOUNITPARAMETERS_H
#define AUHOST_AUDIOUNITPARAMETERS_H

#include <AudioUnit/AudioUnitProperties.h>

AUHOST_ENUM(AudioUnitParameterID) {
    /* Multichannel mixer: input scope (per bus) and output scope. */
    kMultiChannelMixerParam_Volume = 0,
    kMultiChannelMixerParam_Enable = 1,
    kMultiChannelMixerParam_Pan = 2,
    kMultiChannelMixerParam_PreAveragePower = 1000,
    kMultiChannelMixerParam_PrePeakHoldLevel = 2000,
    kMultiChannelMixerParam_PostAveragePower = 3000,
    kMultiChannelMixerParam_PostPeakHoldLevel = 4000
};

AUHOST_ENUM(AudioUnitParameterID) {
    /* AUPeakLimiter, global scope: seconds, seconds, dB. */
    kLimiterParam_AttackTime = 0,
    kLimiterParam_DecayTime = 1,
    kLimiterParam_PreGain = 2
};

#endif
