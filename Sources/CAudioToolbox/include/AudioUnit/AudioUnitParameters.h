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

AUHOST_ENUM(AudioUnitParameterID) {
    /* Apple's filters, global scope: Hz and dB (resonance, gain), cents (bandwidth), Q. */
    kLowPassParam_CutoffFrequency = 0,
    kLowPassParam_Resonance = 1,
    kHipassParam_CutoffFrequency = 0,
    kHipassParam_Resonance = 1,
    kBandpassParam_CenterFrequency = 0,
    kBandpassParam_Bandwidth = 1,
    kAULowShelfParam_CutoffFrequency = 0,
    kAULowShelfParam_Gain = 1,
    kHighShelfParam_CutOffFrequency = 0,
    kHighShelfParam_Gain = 1,
    kParametricEQParam_CenterFreq = 0,
    kParametricEQParam_Q = 1,
    kParametricEQParam_Gain = 2
};

AUHOST_ENUM(AudioUnitParameterID) {
    /* AUDelay, global scope: percent (equal-power crossfade), seconds 0-2, percent -100-100, Hz. */
    kDelayParam_WetDryMix = 0,
    kDelayParam_DelayTime = 1,
    kDelayParam_Feedback = 2,
    kDelayParam_LopassCutoff = 3
};

AUHOST_ENUM(AudioUnitParameterID) {
    /* AUReverb2, global scope: percent, dB, seconds (delays 0.0001-1, decays 0.001-20), 1-1000. */
    kReverb2Param_DryWetMix = 0,
    kReverb2Param_Gain = 1,
    kReverb2Param_MinDelayTime = 2,
    kReverb2Param_MaxDelayTime = 3,
    kReverb2Param_DecayTimeAt0Hz = 4,
    kReverb2Param_DecayTimeAtNyquist = 5,
    kReverb2Param_RandomizeReflections = 6
};

AUHOST_ENUM(AudioUnitParameterID) {
    /* AUDynamicsProcessor, global scope: dB, dB, ratio, dB, seconds, seconds, dB; the last
       three are read-only meters in dB. */
    kDynamicsProcessorParam_Threshold = 0,
    kDynamicsProcessorParam_HeadRoom = 1,
    kDynamicsProcessorParam_ExpansionRatio = 2,
    kDynamicsProcessorParam_ExpansionThreshold = 3,
    kDynamicsProcessorParam_AttackTime = 4,
    kDynamicsProcessorParam_ReleaseTime = 5,
    kDynamicsProcessorParam_OverallGain = 6,
    kDynamicsProcessorParam_MasterGain = 6,
    kDynamicsProcessorParam_CompressionAmount = 1000,
    kDynamicsProcessorParam_InputAmplitude = 2000,
    kDynamicsProcessorParam_OutputAmplitude = 3000
};

AUHOST_ENUM(AudioUnitParameterID) {
    /* AUNBandEQ, global scope; band N's parameter is the base + N. */
    kAUNBandEQParam_GlobalGain = 0,
    kAUNBandEQParam_BypassBand = 1000,
    kAUNBandEQParam_FilterType = 2000,
    kAUNBandEQParam_Frequency = 3000,
    kAUNBandEQParam_Gain = 4000,
    kAUNBandEQParam_Bandwidth = 5000
};

AUHOST_ENUM(SInt32) {
    /* AUNBandEQ's filter types (kAUNBandEQParam_FilterType). */
    kAUNBandEQFilterType_Parametric = 0,
    kAUNBandEQFilterType_2ndOrderButterworthLowPass = 1,
    kAUNBandEQFilterType_2ndOrderButterworthHighPass = 2,
    kAUNBandEQFilterType_ResonantLowPass = 3,
    kAUNBandEQFilterType_ResonantHighPass = 4,
    kAUNBandEQFilterType_BandPass = 5,
    kAUNBandEQFilterType_BandStop = 6,
    kAUNBandEQFilterType_LowShelf = 7,
    kAUNBandEQFilterType_HighShelf = 8,
    kAUNBandEQFilterType_ResonantLowShelf = 9,
    kAUNBandEQFilterType_ResonantHighShelf = 10,
    kNumAUNBandEQFilterTypes = 11
};

#endif
