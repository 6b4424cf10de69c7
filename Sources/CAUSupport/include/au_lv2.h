#ifndef AU_LV2_H
#define AU_LV2_H
#include <stdint.h>

// What Swift cannot do for the LV2 backend (AULV2): the variadic log functions and the
// URI macros that LV2's headers build by string concatenation. This header deliberately
// includes no LV2 header, so LV2's C types exist once (in CLilv) for Swift; the log object
// is handed out as an opaque pointer to use as an LV2_Feature's data.

/// Receives one formatted log message: `type` is the LV2 log level's URID.
/// Thread: whichever thread the plugin logs from (render, worker or control).
typedef void (*au_lv2_log_sink)(void *context, uint32_t type, const char *message);

/// Makes an LV2_Log_Log whose printf / vprintf format into a bounded buffer on the stack
/// (no allocation; long messages are cut at 511 bytes) and pass the text to `sink`.
/// Returns NULL when out of memory. Free it with au_lv2_log_free.
/// Thread: control.
void *au_lv2_log_new(void *context, au_lv2_log_sink sink);
/// Thread: control.
void au_lv2_log_free(void *log);

// LV2 URIs, re-exported from the LV2 headers' concatenated macros (AU_LV2_x is LV2_x).
extern const char *const AU_LV2_URID__map;
extern const char *const AU_LV2_URID__unmap;
extern const char *const AU_LV2_OPTIONS__options;
extern const char *const AU_LV2_BUF_SIZE__boundedBlockLength;
extern const char *const AU_LV2_BUF_SIZE__fixedBlockLength;
extern const char *const AU_LV2_BUF_SIZE__powerOf2BlockLength;
extern const char *const AU_LV2_BUF_SIZE__coarseBlockLength;
extern const char *const AU_LV2_BUF_SIZE__minBlockLength;
extern const char *const AU_LV2_BUF_SIZE__maxBlockLength;
extern const char *const AU_LV2_BUF_SIZE__nominalBlockLength;
extern const char *const AU_LV2_BUF_SIZE__sequenceSize;
extern const char *const AU_LV2_PARAMETERS__sampleRate;
extern const char *const AU_LV2_WORKER__schedule;
extern const char *const AU_LV2_WORKER__interface;
extern const char *const AU_LV2_LOG__log;
extern const char *const AU_LV2_LOG__Error;
extern const char *const AU_LV2_LOG__Warning;
extern const char *const AU_LV2_LOG__Note;
extern const char *const AU_LV2_LOG__Trace;
extern const char *const AU_LV2_STATE__interface;
extern const char *const AU_LV2_STATE__makePath;
extern const char *const AU_LV2_STATE__mapPath;
extern const char *const AU_LV2_STATE__freePath;
extern const char *const AU_LV2_STATE__threadSafeRestore;
extern const char *const AU_LV2_STATE__loadDefaultState;
extern const char *const AU_LV2_CORE__isLive;
extern const char *const AU_LV2_CORE__hardRTCapable;
extern const char *const AU_LV2_CORE__inPlaceBroken;
extern const char *const AU_LV2_CORE__AudioPort;
extern const char *const AU_LV2_CORE__ControlPort;
extern const char *const AU_LV2_CORE__CVPort;
extern const char *const AU_LV2_CORE__InputPort;
extern const char *const AU_LV2_CORE__OutputPort;
extern const char *const AU_LV2_CORE__integer;
extern const char *const AU_LV2_CORE__toggled;
extern const char *const AU_LV2_CORE__enumeration;
extern const char *const AU_LV2_CORE__sampleRate;
extern const char *const AU_LV2_CORE__reportsLatency;
extern const char *const AU_LV2_CORE__connectionOptional;
extern const char *const AU_LV2_CORE__isSideChain;
extern const char *const AU_LV2_CORE__project;
extern const char *const AU_LV2_CORE__InstrumentPlugin;
extern const char *const AU_LV2_CORE__GeneratorPlugin;
extern const char *const AU_LV2_CORE__OscillatorPlugin;
extern const char *const AU_LV2_CORE__ConstantPlugin;
extern const char *const AU_LV2_CORE__MixerPlugin;
extern const char *const AU_LV2_CORE__ConverterPlugin;
extern const char *const AU_LV2_CORE__MIDIPlugin;
extern const char *const AU_LV2_CORE__AnalyserPlugin;
extern const char *const AU_LV2_CORE__SpatialPlugin;
extern const char *const AU_LV2_CORE__minorVersion;
extern const char *const AU_LV2_CORE__microVersion;
extern const char *const AU_LV2_ATOM__AtomPort;
extern const char *const AU_LV2_ATOM__Sequence;
extern const char *const AU_LV2_ATOM__Chunk;
extern const char *const AU_LV2_ATOM__Float;
extern const char *const AU_LV2_ATOM__Double;
extern const char *const AU_LV2_ATOM__Int;
extern const char *const AU_LV2_ATOM__Long;
extern const char *const AU_LV2_ATOM__Bool;
extern const char *const AU_LV2_ATOM__Object;
extern const char *const AU_LV2_ATOM__Path;
extern const char *const AU_LV2_ATOM__URID;
extern const char *const AU_LV2_ATOM__frameTime;
extern const char *const AU_LV2_ATOM__bufferType;
extern const char *const AU_LV2_ATOM__supports;
extern const char *const AU_LV2_MIDI__MidiEvent;
extern const char *const AU_LV2_TIME__Position;
extern const char *const AU_LV2_TIME__frame;
extern const char *const AU_LV2_TIME__speed;
extern const char *const AU_LV2_TIME__bar;
extern const char *const AU_LV2_TIME__barBeat;
extern const char *const AU_LV2_TIME__beatUnit;
extern const char *const AU_LV2_TIME__beatsPerBar;
extern const char *const AU_LV2_TIME__beatsPerMinute;
extern const char *const AU_LV2_PORT_PROPS__logarithmic;
extern const char *const AU_LV2_PORT_PROPS__notOnGUI;
extern const char *const AU_LV2_PORT_GROUPS__group;
extern const char *const AU_LV2_PRESETS__Preset;
extern const char *const AU_LV2_RESIZE_PORT__minimumSize;
extern const char *const AU_LV2_UNITS__unit;
extern const char *const AU_LV2_UNITS__db;
extern const char *const AU_LV2_UNITS__hz;
extern const char *const AU_LV2_UNITS__khz;
extern const char *const AU_LV2_UNITS__ms;
extern const char *const AU_LV2_UNITS__s;
extern const char *const AU_LV2_UNITS__pc;
extern const char *const AU_LV2_UNITS__cent;
extern const char *const AU_LV2_UNITS__semitone12TET;
extern const char *const AU_LV2_UNITS__bpm;
extern const char *const AU_LV2_UNITS__beat;
extern const char *const AU_LV2_UNITS__oct;
extern const char *const AU_LV2_UNITS__midiNote;
extern const char *const AU_LV2_UNITS__degree;
extern const char *const AU_LV2_UNITS__frame;
extern const char *const AU_LV2_UNITS__coef;

#endif
