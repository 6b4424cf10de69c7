/*
 * auhost_plugin.h: the AUHost native unit ABI, version 2.
 *
 * A native unit library is a shared object that exports one C function,
 *
 *     const auhost_plugin_entry_t *auhost_plugin_entry(void);
 *
 * The host loads the library with RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE, calls the
 * function, reads `abi_version` before touching anything else, and never unloads it.
 * Everything that crosses the boundary is a plain C value: integers, floats, C strings,
 * arrays and function pointers. No Swift (or C++) type crosses it, so a unit written in
 * C, or built by another Swift compiler, loads the same way.
 *
 * Thread classes (written beside every function):
 *   control  a host thread that sets up, configures and tears down; never concurrently
 *            with another control call on the same instance.
 *   render   the audio thread. No allocation, no lock, no blocking call, no I/O. Never
 *            concurrently with a control call on the same instance, except those marked
 *            "control, concurrent with render".
 *   any      any thread, at any time.
 *
 * Units are described in Core Audio's terms: a type / subtype / manufacturer code
 * (four ASCII characters packed big-endian into a uint32_t, as OSType: 'aufx' is
 * 0x61756678), parameters with an ID, a range and an AudioUnitParameterUnit, and buses
 * of non-interleaved 32-bit float channels.
 *
 * Versions. Version 2 is version 1 with one function appended to `auhost_unit`,
 * `get_extension`, through which the ABI grows without another version: the host asks an
 * instance for an extension by string ID (as CLAP's `get_extension`) and gets a table of
 * its own or NULL; a host or a unit that does not know an extension skips it. A host of
 * version 2 loads libraries of versions 1 and 2; it reads `get_extension` only from a
 * version-2 table whose `struct_size` covers it. Extensions: AUHOST_EXTENSION_MIDI_OUTPUT.
 */
#ifndef AUHOST_PLUGIN_H
#define AUHOST_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI version this header describes. A host loads libraries of this version and of
 *  AUHOST_PLUGIN_ABI_MINIMUM_VERSION up to it, and refuses any other. */
#define AUHOST_PLUGIN_ABI_VERSION 2u

/** The oldest ABI version a host of this version still loads: version 1, whose
 *  `auhost_unit` ends before `get_extension`. */
#define AUHOST_PLUGIN_ABI_MINIMUM_VERSION 1u

/** The name of the one exported symbol. */
#define AUHOST_PLUGIN_ENTRY_SYMBOL "auhost_plugin_entry"

/** Status codes: 0 is success; errors are Core Audio's kAudioUnitErr_* values. */
#define AUHOST_STATUS_OK 0
#define AUHOST_STATUS_FAILED_INITIALIZATION (-10875)
#define AUHOST_STATUS_TOO_MANY_FRAMES (-10874)
#define AUHOST_STATUS_FORMAT_NOT_SUPPORTED (-10868)
#define AUHOST_STATUS_UNINITIALIZED (-10867)
#define AUHOST_STATUS_INVALID_PARAMETER (-10878)
#define AUHOST_STATUS_INVALID_PROPERTY_VALUE (-10851)

/** The most buses a unit may declare in one direction. */
#define AUHOST_MAX_BUSES 8u

/** The most channels a bus may have (at least 1). */
#define AUHOST_MAX_CHANNELS 64u

/* ------------------------------------------------------------------------------------ */
/* Descriptions                                                                          */

/** One unit a library offers. All strings are UTF-8 and live as long as the process. */
typedef struct auhost_unit_description {
    uint32_t type;          /**< 'aufx' effect, 'aumu' music device, 'augn' generator… */
    uint32_t subtype;
    uint32_t manufacturer;
    uint32_t flags;         /**< reserved, 0 */
    const char *name;
    const char *manufacturer_name;
    const char *version;    /**< "1.0.0" */
    const char *category;   /**< a short classification: "Dynamics", "Delay"…; may be "" */
    uint32_t input_bus_count;                       /**< ≤ AUHOST_MAX_BUSES */
    uint32_t input_channels[AUHOST_MAX_BUSES];      /**< default channel count per bus, 1…AUHOST_MAX_CHANNELS */
    uint32_t output_bus_count;                      /**< ≤ AUHOST_MAX_BUSES */
    uint32_t output_channels[AUHOST_MAX_BUSES];
} auhost_unit_description;

/** Parameter flags. */
#define AUHOST_PARAMETER_IS_OUTPUT      (1u << 0)  /**< produced by the unit (a meter); read-only */
#define AUHOST_PARAMETER_IS_LOGARITHMIC (1u << 1)  /**< best shown on a logarithmic scale */
#define AUHOST_PARAMETER_CAN_RAMP       (1u << 2)  /**< the unit smooths changes itself */

/** Parameter units: Core Audio's AudioUnitParameterUnit values, the one definition the
 *  SDK and the host both use. */
#define AUHOST_PARAMETER_UNIT_GENERIC               0u
#define AUHOST_PARAMETER_UNIT_INDEXED               1u
#define AUHOST_PARAMETER_UNIT_BOOLEAN               2u
#define AUHOST_PARAMETER_UNIT_PERCENT               3u
#define AUHOST_PARAMETER_UNIT_SECONDS               4u
#define AUHOST_PARAMETER_UNIT_SAMPLE_FRAMES         5u
#define AUHOST_PARAMETER_UNIT_PHASE                 6u
#define AUHOST_PARAMETER_UNIT_RATE                  7u
#define AUHOST_PARAMETER_UNIT_HERTZ                 8u
#define AUHOST_PARAMETER_UNIT_CENTS                 9u
#define AUHOST_PARAMETER_UNIT_RELATIVE_SEMITONES    10u
#define AUHOST_PARAMETER_UNIT_MIDI_NOTE_NUMBER      11u
#define AUHOST_PARAMETER_UNIT_MIDI_CONTROLLER       12u
#define AUHOST_PARAMETER_UNIT_DECIBELS              13u
#define AUHOST_PARAMETER_UNIT_LINEAR_GAIN           14u
#define AUHOST_PARAMETER_UNIT_DEGREES               15u
#define AUHOST_PARAMETER_UNIT_EQUAL_POWER_CROSSFADE 16u
#define AUHOST_PARAMETER_UNIT_MIXER_FADER_CURVE_1   17u
#define AUHOST_PARAMETER_UNIT_PAN                   18u
#define AUHOST_PARAMETER_UNIT_METERS                19u
#define AUHOST_PARAMETER_UNIT_ABSOLUTE_CENTS        20u
#define AUHOST_PARAMETER_UNIT_OCTAVES               21u
#define AUHOST_PARAMETER_UNIT_BPM                   22u
#define AUHOST_PARAMETER_UNIT_BEATS                 23u
#define AUHOST_PARAMETER_UNIT_MILLISECONDS          24u
#define AUHOST_PARAMETER_UNIT_RATIO                 25u
#define AUHOST_PARAMETER_UNIT_CUSTOM_UNIT           26u

/** One parameter. `unit` is an AUHOST_PARAMETER_UNIT_* value. */
typedef struct auhost_parameter_info {
    uint32_t id;                /**< stable across versions; saved in presets */
    uint32_t flags;             /**< AUHOST_PARAMETER_* */
    uint32_t unit;
    float min_value;
    float max_value;
    float default_value;
    const char *identifier;     /**< a stable machine name: "time", "feedback" */
    const char *name;           /**< shown to people: "Delay Time" */
    uint32_t value_string_count;        /**< for indexed parameters, else 0 */
    const char *const *value_strings;   /**< names of min_value, min_value + 1, … */
} auhost_parameter_info;

/** A parameter and a value (a factory preset's entry). */
typedef struct auhost_parameter_value {
    uint32_t id;
    float value;
} auhost_parameter_value;

/* ------------------------------------------------------------------------------------ */
/* Render                                                                                */

/** What initialize() is given. */
typedef struct auhost_render_setup {
    double sample_rate;
    uint32_t maximum_frames;            /**< no render call asks for more frames */
    uint32_t input_bus_count;
    uint32_t output_bus_count;
    uint32_t input_channels[AUHOST_MAX_BUSES];
    uint32_t output_channels[AUHOST_MAX_BUSES];
} auhost_render_setup;

/** One bus of audio: `channel_count` pointers to `frame_count` floats each.
 *  An input bus and an output bus may share memory (in-place processing): read sample
 *  i of every input channel before writing sample i of the outputs. */
typedef struct auhost_audio_bus {
    uint32_t channel_count;
    float *const *channels;
} auhost_audio_bus;

#define AUHOST_EVENT_PARAMETER 1u   /**< `id` and `value` are set */
#define AUHOST_EVENT_MIDI      2u   /**< `midi` holds a MIDI 1.0 channel message; in the
                                         output events, a message the unit sends
                                         (AUHOST_EXTENSION_MIDI_OUTPUT) */
#define AUHOST_EVENT_OUTPUT_FINITE 3u /**< output events only (version 2): the unit checked,
                                         as it wrote them, that the samples of frames
                                         `offset` ..< `offset` + `id` of every output channel
                                         are finite (no NaN, no infinity); a host that
                                         counts such frames for the whole call need not
                                         scan the output itself. A host that does not know
                                         the kind ignores it. */

/** An event at a frame of the render call. Events arrive sorted by offset (stable). */
typedef struct auhost_event {
    uint32_t offset;            /**< frame within this render call, < frame_count */
    uint32_t kind;              /**< AUHOST_EVENT_* */
    uint32_t id;                /**< parameter ID */
    float value;                /**< parameter value */
    uint8_t midi[4];            /**< status, data1, data2, 0 */
} auhost_event;

#define AUHOST_TRANSPORT_ROLLING 1u  /**< the transport moves */

/** The host's musical transport at the first frame of the render call (JACK transport
 *  live; offline, as a host exporting a song, a transport rolling at 120 BPM 4/4 from
 *  the first rendered frame: beat = sample_time / sample rate * 2). */
typedef struct auhost_transport {
    uint32_t flags;             /**< AUHOST_TRANSPORT_* */
    uint32_t beat_unit;         /**< the note value of a beat (4: a quarter note) */
    double beats_per_minute;
    double beat;                /**< position in beats since the start */
    double beats_per_bar;
    double beat_in_bar;         /**< 0-based, fractional */
    int64_t bar;                /**< 0-based */
    int64_t frame;              /**< the transport's frame position */
} auhost_transport;

/** One render call. The unit writes `frame_count` frames into every output channel. */
typedef struct auhost_process {
    uint32_t frame_count;
    uint32_t reserved;
    double sample_time;         /**< the first frame's time in samples */
    uint32_t input_bus_count;
    uint32_t output_bus_count;
    const auhost_audio_bus *inputs;
    const auhost_audio_bus *outputs;
    uint32_t event_count;
    const auhost_event *events;
    /** Where the unit reports its output parameters (AUHOST_EVENT_PARAMETER events) and,
     *  when it offers AUHOST_EXTENSION_MIDI_OUTPUT, the MIDI it sends (AUHOST_EVENT_MIDI
     *  events, in the order of their offsets); it writes at most `output_event_capacity`
     *  and sets `*output_event_count`. */
    uint32_t output_event_capacity;
    auhost_event *output_events;
    uint32_t *output_event_count;
    /** The transport, or NULL when the host has none. */
    const auhost_transport *transport;
} auhost_process;

/* ------------------------------------------------------------------------------------ */
/* An instance                                                                           */

/** A unit instance: its data and its function table. Every function takes the instance
 *  it belongs to. The host owns nothing inside it; destroy() frees it. */
typedef struct auhost_unit auhost_unit;
struct auhost_unit {
    uint32_t struct_size;       /**< sizeof(auhost_unit) of the unit's ABI version */
    void *unit_data;            /**< the unit's own; the host never touches it */

    /** Thread: control. How many parameters the unit has (fixed for its life). */
    uint32_t (*parameter_count)(const auhost_unit *unit);
    /** Thread: control. Fills `info` for parameter `index` (< parameter_count);
     *  false when there is none. Strings stay valid until destroy(). */
    bool (*parameter_info)(const auhost_unit *unit, uint32_t index, auhost_parameter_info *info);
    /** Thread: control. The current value of parameter `id`. */
    float (*get_parameter)(const auhost_unit *unit, uint32_t id);
    /** Thread: control. Sets parameter `id` while the unit does not render (before
     *  initialize or between renders); false for an unknown ID. While the unit renders,
     *  the host sends changes as render events instead. */
    bool (*set_parameter)(const auhost_unit *unit, uint32_t id, float value);

    /** Thread: control. Allocates everything render needs. Returns 0, or an error
     *  status with a reason written into `message` (NUL-terminated, ≤ capacity bytes). */
    int32_t (*initialize)(const auhost_unit *unit, const auhost_render_setup *setup,
                          char *message, uint32_t message_capacity);
    /** Thread: control. Frees what initialize() allocated. */
    void (*uninitialize)(const auhost_unit *unit);
    /** Thread: render. Processes one block (only between initialize and uninitialize).
     *  No allocation, no lock, no blocking call. Returns 0 or an error status. */
    int32_t (*render)(const auhost_unit *unit, const auhost_process *process);
    /** Thread: control. Clears delay lines, envelopes and voices; keeps parameters. */
    void (*reset)(const auhost_unit *unit);

    /** Thread: control. Latency in frames at the initialized sample rate. */
    uint32_t (*latency)(const auhost_unit *unit);
    /** Thread: control. How long the unit rings after its input stops, in seconds. */
    double (*tail_time)(const auhost_unit *unit);

    /** Thread: control. Writes the unit's whole state (parameters and anything else) into
     *  `buffer` when it fits in `capacity` bytes, and returns its size in bytes either way
     *  (call again with a larger buffer when the result exceeds `capacity`); −1 on failure. */
    int64_t (*save_state)(const auhost_unit *unit, uint8_t *buffer, uint64_t capacity);
    /** Thread: control, while the unit is not initialized. Restores what save_state()
     *  wrote; false for data it cannot read. */
    bool (*restore_state)(const auhost_unit *unit, const uint8_t *data, uint64_t size);

    /** Thread: control. How many factory presets the unit has. */
    uint32_t (*preset_count)(const auhost_unit *unit);
    /** Thread: control. The name of factory preset `index`, or NULL. */
    const char *(*preset_name)(const auhost_unit *unit, uint32_t index);
    /** Thread: control. The parameter values factory preset `index` sets: writes at most
     *  `capacity` of them into `values` and returns how many it has (0 when no preset).
     *  The host applies them like any other parameter change (as render events while the
     *  unit renders), so the unit never changes its own parameters behind the host's back. */
    uint32_t (*preset_values)(const auhost_unit *unit, uint32_t index,
                              auhost_parameter_value *values, uint32_t capacity);

    /** Thread: control. Frees the instance; `unit` is invalid afterwards. */
    void (*destroy)(const auhost_unit *unit);

    /* ---- version 2: read only when the library's abi_version is 2 or more and
     *      struct_size ≥ offsetof(auhost_unit, get_extension) + sizeof(void *). ---- */

    /** Thread: control. The unit's table for extension `id` (an AUHOST_EXTENSION_* string),
     *  or NULL when it does not offer it (or does not know the ID). The table lives until
     *  destroy(). The host asks before initialize. May be NULL: no extension. */
    const void *(*get_extension)(const auhost_unit *unit, const char *id);
};

/* ------------------------------------------------------------------------------------ */
/* Extensions (version 2)                                                                */

/** MIDI output: the unit sends MIDI 1.0 channel messages from its render calls (an
 *  arpeggiator, a sequencer, a MIDI processor's output; Core Audio's
 *  kAudioUnitProperty_MIDIOutputCallback). Offering the extension is the declaration: a
 *  unit returns the table for this ID only when it sends MIDI.
 *
 *  In each render call the unit writes the messages it sends into the process's
 *  `output_events`, as AUHOST_EVENT_MIDI events (`offset` < frame_count, `midi` status,
 *  data1, data2, 0), in the order of their offsets, beside its output-parameter events, and
 *  counts them in `*output_event_count`. The host gives such a unit room for at least
 *  AUHOST_MIDI_OUTPUT_MINIMUM_CAPACITY MIDI events per render call beyond four per
 *  parameter; what does not fit in `output_event_capacity` is the unit's to drop. Nothing
 *  is allocated: the list is the host's, reused every call. */
#define AUHOST_EXTENSION_MIDI_OUTPUT "auhost.midi-output"

/** The room a host leaves for a unit's MIDI output in one render call, at least. */
#define AUHOST_MIDI_OUTPUT_MINIMUM_CAPACITY 256u

/** The table of AUHOST_EXTENSION_MIDI_OUTPUT. */
typedef struct auhost_midi_output_extension {
    uint32_t struct_size;       /**< sizeof(auhost_midi_output_extension) */
    uint32_t flags;             /**< reserved, 0 */
} auhost_midi_output_extension;

/* ------------------------------------------------------------------------------------ */
/* The library                                                                           */

/** What the host tells a library about itself. */
typedef struct auhost_host_info {
    uint32_t abi_version;       /**< AUHOST_PLUGIN_ABI_VERSION of the host */
    const char *name;           /**< "AUHost" */
    const char *version;        /**< "0.1.0" */
} auhost_host_info;

/** The table the entry symbol returns (named `_t` so the type and the symbol can share a
 *  C translation unit). `abi_version` comes first in every version. */
typedef struct auhost_plugin_entry_t {
    uint32_t abi_version;       /**< AUHOST_PLUGIN_ABI_VERSION the library was built for */
    uint32_t reserved;

    /** Thread: control. Prepares the factory; called before unit_count, possibly more
     *  than once (it must be idempotent). `path` is the library's file. Returns false,
     *  with a reason in `message`, when the library cannot offer its units. */
    bool (*init)(const char *path, char *message, uint32_t message_capacity);
    /** Thread: any (after init). How many units the library offers. */
    uint32_t (*unit_count)(void);
    /** Thread: any (after init). Unit `index`'s description, or NULL. It lives as long
     *  as the process. */
    const auhost_unit_description *(*unit_description)(uint32_t index);
    /** Thread: control. A new, uninitialized instance of unit `index`, or NULL on failure.
     *  Parameters hold their defaults. */
    const auhost_unit *(*create_unit)(uint32_t index, const auhost_host_info *host);
} auhost_plugin_entry_t;

/** The type of the entry point every library exports (see AUHOST_PLUGIN_ENTRY_SYMBOL):
 *  `const auhost_plugin_entry_t *auhost_plugin_entry(void)`.
 *  Thread: control. Returns the same table every time. */
typedef const auhost_plugin_entry_t *(*auhost_plugin_entry_function)(void);

#ifdef __cplusplus
}
#endif

#endif /* AUHOST_PLUGIN_H */
