import Foundation
import Testing
import AUTestSupport

/// The fixture units of `auhost validate`: one effect written in C, `aufx:vfix:Test`, that
/// keeps every rule the validator checks, and, built with one `-D` definition, breaks
/// exactly one of them (docs/VALIDATE.md lists which test each one fails).
enum ValidateFixtures {
    /// A broken fixture: the `-D` definition and the test aimed at what it breaks.
    struct Breakage: Sendable, CustomTestStringConvertible {
        var define: String
        var test: String
        var testDescription: String { define }
    }

    /// Every breakage, each caught by its own test.
    static let breakages = [
        Breakage(define: "WRONG_LATENCY", test: "latency"),
        Breakage(define: "NAN_AFTER_CHANGE", test: "automation"),
        Breakage(define: "STATE_NOT_RESTORED", test: "state"),
        Breakage(define: "ALLOC_IN_RENDER", test: "render-allocations"),
        Breakage(define: "LOCK_IN_RENDER", test: "render-allocations"),
        Breakage(define: "SYSCALL_IN_RENDER", test: "render-allocations"),
        Breakage(define: "HANG_IN_RENDER", test: "render"),
        Breakage(define: "CRASH_IN_INITIALIZE", test: "initialize-cycles"),
        Breakage(define: "RANGE_LIE", test: "parameter-ranges"),
        Breakage(define: "LONG_TAIL", test: "tail"),
        Breakage(define: "REFUSES_BLOCK_OF_ONE", test: "render"),
        Breakage(define: "NOISE_FROM_SILENCE", test: "silence"),
        Breakage(define: "RESET_KEEPS_STATE", test: "reset"),
    ]

    /// A stereo effect: gain (ID 0, linear 0...4), mode (ID 1, indexed: normal, inverted,
    /// half) and a short echo (32 frames back, at 0.05: below -80 dBFS within 3 ms, inside
    /// the 10 ms tail it reports), which reset clears; LONG_TAIL adds a comb of 2400 frames
    /// fed back at 0.9 (4 s to -80 dBFS).
    static let source = """
        #define _GNU_SOURCE
        #include <math.h>
        #include <pthread.h>
        #include <sys/syscall.h>
        #include <unistd.h>
        #include <stdlib.h>
        #include <string.h>
        #include "auhost_plugin.h"

        #define COMB 2400
        #define DELAY 32
        typedef struct {
            float gain, mode, trim;
            int initializations;
            double rate;
            float *comb[2]; uint32_t comb_at;
            float echo[2][DELAY]; float late[2][DELAY]; uint32_t delay_at;
            uint32_t noise; int heard;
        } state;

        static const char *const mode_names[] = {"normal", "inverted", "half"};
        static uint32_t parameter_count(const auhost_unit *u) { (void)u; return 2; }
        static bool parameter_info(const auhost_unit *u, uint32_t i, auhost_parameter_info *info) {
            (void)u;
            memset(info, 0, sizeof *info);
            if (i == 0) {
                info->id = 0; info->unit = AUHOST_PARAMETER_UNIT_LINEAR_GAIN; info->min_value = 0; info->max_value = 4;
                info->default_value = 1; info->identifier = "gain"; info->name = "Gain";
                return true;
            }
            if (i == 1) {
                info->id = 1; info->unit = AUHOST_PARAMETER_UNIT_INDEXED; info->min_value = 0;
        #ifdef RANGE_LIE
                info->max_value = 4;  /* five values, three names */
        #else
                info->max_value = 2;
        #endif
                info->default_value = 0; info->identifier = "mode"; info->name = "Mode";
                info->value_string_count = 3; info->value_strings = mode_names;
                return true;
            }
            return false;
        }
        static float get_parameter(const auhost_unit *u, uint32_t id) {
            state *s = u->unit_data;
            return id == 0 ? s->gain : s->mode;
        }
        static bool set_parameter(const auhost_unit *u, uint32_t id, float v) {
            state *s = u->unit_data;
            if (id == 0) s->gain = v; else if (id == 1) s->mode = v; else return false;
            return true;
        }
        static void clear(state *s) {
            for (int c = 0; c < 2; c++) { if (s->comb[c]) memset(s->comb[c], 0, COMB * sizeof(float)); }
            memset(s->echo, 0, sizeof s->echo);
            memset(s->late, 0, sizeof s->late);
            s->comb_at = 0; s->delay_at = 0;
        }
        static int32_t initialize(const auhost_unit *u, const auhost_render_setup *setup, char *m, uint32_t c) {
            (void)m; (void)c;
            state *s = u->unit_data;
        #ifdef CRASH_IN_INITIALIZE
            if (++s->initializations == 3) abort();
        #endif
            s->rate = setup->sample_rate;
            for (int ch = 0; ch < 2; ch++) s->comb[ch] = calloc(COMB, sizeof(float));
            clear(s);
            return 0;
        }
        static void uninitialize(const auhost_unit *u) {
            state *s = u->unit_data;
            for (int c = 0; c < 2; c++) { free(s->comb[c]); s->comb[c] = NULL; }
        }
        #ifdef LOCK_IN_RENDER
        static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
        #endif
        static int32_t render(const auhost_unit *u, const auhost_process *p) {
            state *s = u->unit_data;
        #ifdef REFUSES_BLOCK_OF_ONE
            if (p->frame_count == 1) return AUHOST_STATUS_FORMAT_NOT_SUPPORTED;
        #endif
        #ifdef HANG_IN_RENDER
            if (s->rate == 96000) { for (;;) __asm__ volatile("" ::: "memory"); }
        #endif
        #ifdef ALLOC_IN_RENDER
            void *volatile scratch = malloc(256);
            free(scratch);
        #endif
        #ifdef LOCK_IN_RENDER
            pthread_mutex_lock(&lock);
            pthread_mutex_unlock(&lock);
        #endif
        #ifdef SYSCALL_IN_RENDER
            syscall(SYS_getppid);  /* straight to the kernel: no library function to count */
        #endif
            uint32_t next = 0;
            int poisoned = 0;
            for (uint32_t f = 0; f < p->frame_count; f++) {
                while (next < p->event_count && p->events[next].offset <= f) {
                    const auhost_event *e = &p->events[next++];
                    if (e->kind != AUHOST_EVENT_PARAMETER) continue;
                    if (e->id == 0) s->gain = e->value; else if (e->id == 1) s->mode = e->value;
        #ifdef NAN_AFTER_CHANGE
                    if (e->offset > 0) poisoned = 1;  /* a coefficient divided by zero */
        #endif
                }
                float scale = s->gain * s->trim * (s->mode == 1 ? -1.0f : s->mode == 2 ? 0.5f : 1.0f);
                for (uint32_t c = 0; c < 2; c++) {
                    float x = p->inputs[0].channels[c][f];
                    if (x != 0) s->heard = 1;
        #ifdef WRONG_LATENCY
                    float delayed = s->late[c][s->delay_at];
                    s->late[c][s->delay_at] = x;
                    x = delayed;
        #endif
                    float y = x * scale + 0.05f * s->echo[c][s->delay_at];
                    s->echo[c][s->delay_at] = y;
        #ifdef LONG_TAIL
                    y += 0.9f * s->comb[c][s->comb_at];
        #endif
                    s->comb[c][s->comb_at] = y;
        #ifdef NOISE_FROM_SILENCE
                    /* hiss until the input first moves */
                    if (!s->heard) s->noise = s->noise * 1664525u + 1013904223u;
                    if (!s->heard) y += (float)(s->noise >> 8) / 16777216.0f * 1e-3f;
        #endif
                    p->outputs[0].channels[c][f] = poisoned ? NAN : y;
                }
                s->comb_at = (s->comb_at + 1) % COMB;
                s->delay_at = (s->delay_at + 1) % DELAY;
            }
            return 0;
        }
        static void reset(const auhost_unit *u) {
        #ifndef RESET_KEEPS_STATE
            clear(u->unit_data);
        #else
            (void)u;
        #endif
        }
        static uint32_t latency(const auhost_unit *u) { (void)u; return 0; }
        static double tail_time(const auhost_unit *u) { (void)u; return 0.01; }
        static int64_t save_state(const auhost_unit *u, uint8_t *b, uint64_t cap) {
            state *s = u->unit_data;
            float values[3] = { s->gain, s->mode, s->trim };
            if (b && cap >= sizeof values) memcpy(b, values, sizeof values);
            return sizeof values;
        }
        static bool restore_state(const auhost_unit *u, const uint8_t *d, uint64_t n) {
            state *s = u->unit_data;
            float values[3];
            if (n != sizeof values) return false;
            memcpy(values, d, sizeof values);
            s->gain = values[0]; s->mode = values[1]; s->trim = values[2];
        #ifdef STATE_NOT_RESTORED
            s->trim = 0.5f;  /* what it restores is not what it saved */
        #endif
            return true;
        }
        static uint32_t preset_count(const auhost_unit *u) { (void)u; return 0; }
        static const char *preset_name(const auhost_unit *u, uint32_t i) { (void)u; (void)i; return NULL; }
        static uint32_t preset_values(const auhost_unit *u, uint32_t i, auhost_parameter_value *v, uint32_t c) { (void)u; (void)i; (void)v; (void)c; return 0; }
        static void destroy(const auhost_unit *u) { uninitialize(u); free(u->unit_data); free((void *)u); }

        static bool init(const char *path, char *m, uint32_t c) { (void)path; (void)m; (void)c; return true; }
        static uint32_t unit_count(void) { return 1; }
        static const auhost_unit_description description = {
            .type = 0x61756678, .subtype = 0x76666978, .manufacturer = 0x54657374,
            .name = "Validator Fixture", .manufacturer_name = "Test", .version = "1.0.0", .category = "Utility",
            .input_bus_count = 1, .input_channels = {2}, .output_bus_count = 1, .output_channels = {2},
        };
        static const auhost_unit_description *unit_description(uint32_t i) { return i == 0 ? &description : NULL; }
        static const auhost_unit *create_unit(uint32_t i, const auhost_host_info *h) {
            (void)h;
            if (i != 0) return NULL;
            auhost_unit *u = calloc(1, sizeof *u);
            state *s = calloc(1, sizeof *s);
            s->gain = 1; s->trim = 1;
            u->struct_size = sizeof *u; u->unit_data = s;
            u->parameter_count = parameter_count; u->parameter_info = parameter_info;
            u->get_parameter = get_parameter; u->set_parameter = set_parameter;
            u->initialize = initialize; u->uninitialize = uninitialize; u->render = render; u->reset = reset;
            u->latency = latency; u->tail_time = tail_time; u->save_state = save_state; u->restore_state = restore_state;
            u->preset_count = preset_count; u->preset_name = preset_name; u->preset_values = preset_values;
            u->destroy = destroy;
            return u;
        }
        static const auhost_plugin_entry_t entry = { AUHOST_PLUGIN_ABI_VERSION, 0, init, unit_count, unit_description, create_unit };
        const auhost_plugin_entry_t *auhost_plugin_entry(void) { return &entry; }
        """

    /// A MIDI processor, `aumi:vmid:Test`, that echoes every MIDI event at its frame;
    /// EARLY_MIDI echoes each at the cycle's first frame (as a unit that reads its input
    /// once per cycle and answers at once), which only `midi-events` catches.
    static let midiSource = """
        #include <stdlib.h>
        #include <string.h>
        #include "auhost_plugin.h"

        static uint32_t parameter_count(const auhost_unit *u) { (void)u; return 0; }
        static bool parameter_info(const auhost_unit *u, uint32_t i, auhost_parameter_info *info) { (void)u; (void)i; (void)info; return false; }
        static float get_parameter(const auhost_unit *u, uint32_t id) { (void)u; (void)id; return 0; }
        static bool set_parameter(const auhost_unit *u, uint32_t id, float v) { (void)u; (void)id; (void)v; return false; }
        static int32_t initialize(const auhost_unit *u, const auhost_render_setup *setup, char *m, uint32_t c) { (void)u; (void)setup; (void)m; (void)c; return 0; }
        static void uninitialize(const auhost_unit *u) { (void)u; }
        static int32_t render(const auhost_unit *u, const auhost_process *p) {
            (void)u;
            uint32_t sent = *p->output_event_count;
            for (uint32_t i = 0; i < p->event_count && sent < p->output_event_capacity; i++) {
                if (p->events[i].kind != AUHOST_EVENT_MIDI) continue;
                auhost_event echo = p->events[i];
        #ifdef EARLY_MIDI
                echo.offset = 0;
        #endif
                p->output_events[sent++] = echo;
            }
            *p->output_event_count = sent;
            return 0;
        }
        static void reset(const auhost_unit *u) { (void)u; }
        static uint32_t latency(const auhost_unit *u) { (void)u; return 0; }
        static double tail_time(const auhost_unit *u) { (void)u; return 0; }
        static int64_t save_state(const auhost_unit *u, uint8_t *b, uint64_t cap) { (void)u; (void)b; (void)cap; return 0; }
        static bool restore_state(const auhost_unit *u, const uint8_t *d, uint64_t n) { (void)u; (void)d; return n == 0; }
        static uint32_t preset_count(const auhost_unit *u) { (void)u; return 0; }
        static const char *preset_name(const auhost_unit *u, uint32_t i) { (void)u; (void)i; return NULL; }
        static uint32_t preset_values(const auhost_unit *u, uint32_t i, auhost_parameter_value *v, uint32_t c) { (void)u; (void)i; (void)v; (void)c; return 0; }
        static const auhost_midi_output_extension midi_output = { sizeof(auhost_midi_output_extension), 0 };
        static const void *get_extension(const auhost_unit *u, const char *id) {
            (void)u;
            return strcmp(id, AUHOST_EXTENSION_MIDI_OUTPUT) == 0 ? &midi_output : NULL;
        }
        static void destroy(const auhost_unit *u) { free((void *)u); }

        static bool init(const char *path, char *m, uint32_t c) { (void)path; (void)m; (void)c; return true; }
        static uint32_t unit_count(void) { return 1; }
        static const auhost_unit_description description = {
            .type = 0x61756d69, .subtype = 0x766d6964, .manufacturer = 0x54657374,
            .name = "Validator MIDI Fixture", .manufacturer_name = "Test", .version = "1.0.0", .category = "MIDI",
        };
        static const auhost_unit_description *unit_description(uint32_t i) { return i == 0 ? &description : NULL; }
        static const auhost_unit *create_unit(uint32_t i, const auhost_host_info *h) {
            (void)h;
            if (i != 0) return NULL;
            auhost_unit *u = calloc(1, sizeof *u);
            u->struct_size = sizeof *u;
            u->parameter_count = parameter_count; u->parameter_info = parameter_info;
            u->get_parameter = get_parameter; u->set_parameter = set_parameter;
            u->initialize = initialize; u->uninitialize = uninitialize; u->render = render; u->reset = reset;
            u->latency = latency; u->tail_time = tail_time; u->save_state = save_state; u->restore_state = restore_state;
            u->preset_count = preset_count; u->preset_name = preset_name; u->preset_values = preset_values;
            u->get_extension = get_extension;
            u->destroy = destroy;
            return u;
        }
        static const auhost_plugin_entry_t entry = { AUHOST_PLUGIN_ABI_VERSION, 0, init, unit_count, unit_description, create_unit };
        const auhost_plugin_entry_t *auhost_plugin_entry(void) { return &entry; }
        """

    /// The MIDI fixture built with `define` (nil: the good one) into a fresh folder.
    static func buildMIDI(_ define: String?) throws -> URL {
        let folder = try CLibraryFixtures.makeFolder("validate-midi-\(define ?? "good")")
        try CLibraryFixtures.build(midiSource, named: "libvalidatemidifixture.so", in: folder, defines: define.map { [$0] } ?? [])
        return folder
    }

    /// The fixture built with `define` (nil: the good one) into a fresh folder; returns the folder.
    static func build(_ define: String?) throws -> URL {
        let folder = try CLibraryFixtures.makeFolder("validate-\(define ?? "good")")
        try CLibraryFixtures.build(source, named: "libvalidatefixture.so", in: folder, defines: define.map { [$0] } ?? [])
        return folder
    }
}
