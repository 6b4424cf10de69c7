#include "au_lv2.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/core/lv2.h>
#include <lv2/log/log.h>
#include <lv2/midi/midi.h>
#include <lv2/options/options.h>
#include <lv2/parameters/parameters.h>
#include <lv2/port-groups/port-groups.h>
#include <lv2/port-props/port-props.h>
#include <lv2/presets/presets.h>
#include <lv2/resize-port/resize-port.h>
#include <lv2/state/state.h>
#include <lv2/time/time.h>
#include <lv2/units/units.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

/// The log feature's data: LV2_Log_Log first, so a pointer to it is a pointer to this.
typedef struct {
    LV2_Log_Log log;
    void *context;
    au_lv2_log_sink sink;
} AULV2Log;

static int au_lv2_vprintf(LV2_Log_Handle handle, LV2_URID type, const char *format, va_list arguments) {
    const AULV2Log *self = (const AULV2Log *)handle;
    char text[512];
    int length = vsnprintf(text, sizeof text, format, arguments);
    if (length < 0) return length;
    self->sink(self->context, type, text);
    return length;
}

static int au_lv2_printf(LV2_Log_Handle handle, LV2_URID type, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int length = au_lv2_vprintf(handle, type, format, arguments);
    va_end(arguments);
    return length;
}

void *au_lv2_log_new(void *context, au_lv2_log_sink sink) {
    AULV2Log *self = calloc(1, sizeof(AULV2Log));
    if (!self) return NULL;
    self->log.handle = self;
    self->log.printf = au_lv2_printf;
    self->log.vprintf = au_lv2_vprintf;
    self->context = context;
    self->sink = sink;
    return self;
}

void au_lv2_log_free(void *log) { free(log); }

const char *const AU_LV2_URID__map = LV2_URID__map;
const char *const AU_LV2_URID__unmap = LV2_URID__unmap;
const char *const AU_LV2_OPTIONS__options = LV2_OPTIONS__options;
const char *const AU_LV2_BUF_SIZE__boundedBlockLength = LV2_BUF_SIZE__boundedBlockLength;
const char *const AU_LV2_BUF_SIZE__fixedBlockLength = LV2_BUF_SIZE__fixedBlockLength;
const char *const AU_LV2_BUF_SIZE__powerOf2BlockLength = LV2_BUF_SIZE__powerOf2BlockLength;
const char *const AU_LV2_BUF_SIZE__coarseBlockLength = LV2_BUF_SIZE__coarseBlockLength;
const char *const AU_LV2_BUF_SIZE__minBlockLength = LV2_BUF_SIZE__minBlockLength;
const char *const AU_LV2_BUF_SIZE__maxBlockLength = LV2_BUF_SIZE__maxBlockLength;
const char *const AU_LV2_BUF_SIZE__nominalBlockLength = LV2_BUF_SIZE__nominalBlockLength;
const char *const AU_LV2_BUF_SIZE__sequenceSize = LV2_BUF_SIZE__sequenceSize;
const char *const AU_LV2_PARAMETERS__sampleRate = LV2_PARAMETERS__sampleRate;
const char *const AU_LV2_WORKER__schedule = LV2_WORKER__schedule;
const char *const AU_LV2_WORKER__interface = LV2_WORKER__interface;
const char *const AU_LV2_LOG__log = LV2_LOG__log;
const char *const AU_LV2_LOG__Error = LV2_LOG__Error;
const char *const AU_LV2_LOG__Warning = LV2_LOG__Warning;
const char *const AU_LV2_LOG__Note = LV2_LOG__Note;
const char *const AU_LV2_LOG__Trace = LV2_LOG__Trace;
const char *const AU_LV2_STATE__interface = LV2_STATE__interface;
const char *const AU_LV2_STATE__makePath = LV2_STATE__makePath;
const char *const AU_LV2_STATE__mapPath = LV2_STATE__mapPath;
const char *const AU_LV2_STATE__freePath = LV2_STATE__freePath;
const char *const AU_LV2_STATE__threadSafeRestore = LV2_STATE__threadSafeRestore;
const char *const AU_LV2_STATE__loadDefaultState = LV2_STATE__loadDefaultState;
const char *const AU_LV2_CORE__isLive = LV2_CORE__isLive;
const char *const AU_LV2_CORE__hardRTCapable = LV2_CORE__hardRTCapable;
const char *const AU_LV2_CORE__inPlaceBroken = LV2_CORE__inPlaceBroken;
const char *const AU_LV2_CORE__AudioPort = LV2_CORE__AudioPort;
const char *const AU_LV2_CORE__ControlPort = LV2_CORE__ControlPort;
const char *const AU_LV2_CORE__CVPort = LV2_CORE__CVPort;
const char *const AU_LV2_CORE__InputPort = LV2_CORE__InputPort;
const char *const AU_LV2_CORE__OutputPort = LV2_CORE__OutputPort;
const char *const AU_LV2_CORE__integer = LV2_CORE__integer;
const char *const AU_LV2_CORE__toggled = LV2_CORE__toggled;
const char *const AU_LV2_CORE__enumeration = LV2_CORE__enumeration;
const char *const AU_LV2_CORE__sampleRate = LV2_CORE__sampleRate;
const char *const AU_LV2_CORE__reportsLatency = LV2_CORE__reportsLatency;
const char *const AU_LV2_CORE__connectionOptional = LV2_CORE__connectionOptional;
const char *const AU_LV2_CORE__isSideChain = LV2_CORE_PREFIX "isSideChain";
const char *const AU_LV2_CORE__project = LV2_CORE__project;
const char *const AU_LV2_CORE__InstrumentPlugin = LV2_CORE__InstrumentPlugin;
const char *const AU_LV2_CORE__GeneratorPlugin = LV2_CORE__GeneratorPlugin;
const char *const AU_LV2_CORE__OscillatorPlugin = LV2_CORE__OscillatorPlugin;
const char *const AU_LV2_CORE__ConstantPlugin = LV2_CORE__ConstantPlugin;
const char *const AU_LV2_CORE__MixerPlugin = LV2_CORE__MixerPlugin;
const char *const AU_LV2_CORE__ConverterPlugin = LV2_CORE__ConverterPlugin;
const char *const AU_LV2_CORE__MIDIPlugin = LV2_CORE_PREFIX "MIDIPlugin";
const char *const AU_LV2_CORE__AnalyserPlugin = LV2_CORE__AnalyserPlugin;
const char *const AU_LV2_CORE__SpatialPlugin = LV2_CORE__SpatialPlugin;
const char *const AU_LV2_CORE__minorVersion = LV2_CORE__minorVersion;
const char *const AU_LV2_CORE__microVersion = LV2_CORE__microVersion;
const char *const AU_LV2_ATOM__AtomPort = LV2_ATOM__AtomPort;
const char *const AU_LV2_ATOM__Sequence = LV2_ATOM__Sequence;
const char *const AU_LV2_ATOM__Chunk = LV2_ATOM__Chunk;
const char *const AU_LV2_ATOM__Float = LV2_ATOM__Float;
const char *const AU_LV2_ATOM__Double = LV2_ATOM__Double;
const char *const AU_LV2_ATOM__Int = LV2_ATOM__Int;
const char *const AU_LV2_ATOM__Long = LV2_ATOM__Long;
const char *const AU_LV2_ATOM__Bool = LV2_ATOM__Bool;
const char *const AU_LV2_ATOM__Object = LV2_ATOM__Object;
const char *const AU_LV2_ATOM__Path = LV2_ATOM__Path;
const char *const AU_LV2_ATOM__URID = LV2_ATOM__URID;
const char *const AU_LV2_ATOM__frameTime = LV2_ATOM__frameTime;
const char *const AU_LV2_ATOM__bufferType = LV2_ATOM__bufferType;
const char *const AU_LV2_ATOM__supports = LV2_ATOM__supports;
const char *const AU_LV2_MIDI__MidiEvent = LV2_MIDI__MidiEvent;
const char *const AU_LV2_TIME__Position = LV2_TIME__Position;
const char *const AU_LV2_TIME__frame = LV2_TIME__frame;
const char *const AU_LV2_TIME__speed = LV2_TIME__speed;
const char *const AU_LV2_TIME__bar = LV2_TIME__bar;
const char *const AU_LV2_TIME__barBeat = LV2_TIME__barBeat;
const char *const AU_LV2_TIME__beatUnit = LV2_TIME__beatUnit;
const char *const AU_LV2_TIME__beatsPerBar = LV2_TIME__beatsPerBar;
const char *const AU_LV2_TIME__beatsPerMinute = LV2_TIME__beatsPerMinute;
const char *const AU_LV2_PORT_PROPS__logarithmic = LV2_PORT_PROPS__logarithmic;
const char *const AU_LV2_PORT_PROPS__notOnGUI = LV2_PORT_PROPS__notOnGUI;
const char *const AU_LV2_PORT_GROUPS__group = LV2_PORT_GROUPS__group;
const char *const AU_LV2_PRESETS__Preset = LV2_PRESETS__Preset;
const char *const AU_LV2_RESIZE_PORT__minimumSize = LV2_RESIZE_PORT__minimumSize;
const char *const AU_LV2_UNITS__unit = LV2_UNITS__unit;
const char *const AU_LV2_UNITS__db = LV2_UNITS__db;
const char *const AU_LV2_UNITS__hz = LV2_UNITS__hz;
const char *const AU_LV2_UNITS__khz = LV2_UNITS__khz;
const char *const AU_LV2_UNITS__ms = LV2_UNITS__ms;
const char *const AU_LV2_UNITS__s = LV2_UNITS__s;
const char *const AU_LV2_UNITS__pc = LV2_UNITS__pc;
const char *const AU_LV2_UNITS__cent = LV2_UNITS__cent;
const char *const AU_LV2_UNITS__semitone12TET = LV2_UNITS__semitone12TET;
const char *const AU_LV2_UNITS__bpm = LV2_UNITS__bpm;
const char *const AU_LV2_UNITS__beat = LV2_UNITS__beat;
const char *const AU_LV2_UNITS__oct = LV2_UNITS__oct;
const char *const AU_LV2_UNITS__midiNote = LV2_UNITS__midiNote;
const char *const AU_LV2_UNITS__degree = LV2_UNITS__degree;
const char *const AU_LV2_UNITS__frame = LV2_UNITS__frame;
const char *const AU_LV2_UNITS__coef = LV2_UNITS__coef;
