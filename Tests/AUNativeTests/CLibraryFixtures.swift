import Foundation
import Testing
import AUTestSupport

/// Small unit libraries written in C and built in the test with `cc -shared`: a good unit
/// (proving a unit needs no Swift at all) and one library per failure mode.
enum CLibraryFixtures {
    /// The ABI header's folder in this checkout.
    static let abiInclude = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/CAUPluginABI/include").path

    /// A gain unit, `aufx:cgan:Test`, entirely in C: one parameter (linear gain, ID 7).
    /// `-DCONSTRUCTOR_ABORTS`, `-DCONSTRUCTOR_LOOPS`, `-DUNIT_COUNT=n`, `-DSECOND_LOAD=…` and
    /// `-DUNIT_COUNT_GROWS=n` make it a bad library. `-DMIDI_OUTPUT` gives it the MIDI output
    /// extension (a note-on at the middle frame of every render call). Built for ABI
    /// version 1 its table is version 1's (`struct_size` ends before `get_extension`), even
    /// when `get_extension` is set past it.
    static let goodUnit = """
        #include <stddef.h>
        #include <stdlib.h>
        #include <string.h>
        #include "auhost_plugin.h"

        typedef struct { float gain; int initialized; int calls; } state;

        #ifdef MIDI_OUTPUT
        static const auhost_midi_output_extension midi_output = { sizeof midi_output, 0 };
        static const void *get_extension(const auhost_unit *u, const char *id) {
            (void)u;
            return strcmp(id, AUHOST_EXTENSION_MIDI_OUTPUT) == 0 ? &midi_output : NULL;
        }
        static void send_midi(const auhost_process *p) {
            if (*p->output_event_count >= p->output_event_capacity) return;
            auhost_event *e = &p->output_events[(*p->output_event_count)++];
            memset(e, 0, sizeof *e);
            e->offset = p->frame_count / 2; e->kind = AUHOST_EVENT_MIDI;
            e->midi[0] = 0x91; e->midi[1] = 60; e->midi[2] = 100;
        }
        #endif

        static uint32_t parameter_count(const auhost_unit *u) { (void)u; return 1; }
        static bool parameter_info(const auhost_unit *u, uint32_t i, auhost_parameter_info *info) {
            (void)u;
            if (i != 0) return false;
            memset(info, 0, sizeof *info);
            info->id = 7; info->unit = AUHOST_PARAMETER_UNIT_LINEAR_GAIN; info->min_value = 0; info->max_value = 4; info->default_value = 1;
            info->identifier = "gain"; info->name = "Linear Gain";
            return true;
        }
        static float get_parameter(const auhost_unit *u, uint32_t id) { return id == 7 ? ((state *)u->unit_data)->gain : 0; }
        static bool set_parameter(const auhost_unit *u, uint32_t id, float v) {
            if (id != 7) return false;
            ((state *)u->unit_data)->gain = v;
            return true;
        }
        static int32_t initialize(const auhost_unit *u, const auhost_render_setup *s, char *m, uint32_t c) {
            (void)m; (void)c; (void)s; ((state *)u->unit_data)->initialized = 1; return 0;
        }
        static void uninitialize(const auhost_unit *u) { ((state *)u->unit_data)->initialized = 0; }
        static int32_t render(const auhost_unit *u, const auhost_process *p) {
            state *st = u->unit_data;
            uint32_t next = 0;
            int applied = 0;
            st->calls++;
        #ifdef MIDI_OUTPUT
            *p->output_event_count = 0;
            send_midi(p);
        #endif
            for (uint32_t f = 0; f < p->frame_count; f++) {
                while (next < p->event_count && p->events[next].offset <= f) {
                    if (p->events[next].kind == AUHOST_EVENT_PARAMETER && p->events[next].id == 7) { st->gain = p->events[next].value; applied = 1; }
                    next++;
                }
        #if defined(GAIN_FROM_CALLS)
                /* the render calls so far, plus 10 from the frame of this call's parameter event */
                float gain = (float)st->calls + (applied ? 10.0f : 0.0f);
        #elif defined(GAIN_FROM_TRANSPORT)
                /* tempo / 120, negative when stopped, 0 without a transport */
                float gain = p->transport ? (float)(p->transport->beats_per_minute / 120.0)
                    * ((p->transport->flags & AUHOST_TRANSPORT_ROLLING) ? 1.0f : -1.0f) : 0.0f;
        #else
                float gain = st->gain;
        #endif
                for (uint32_t c = 0; c < p->outputs[0].channel_count; c++)
                    p->outputs[0].channels[c][f] = p->inputs[0].channels[c][f] * gain;
            }
            return 0;
        }
        static void reset(const auhost_unit *u) { (void)u; }
        static uint32_t latency(const auhost_unit *u) { (void)u; return 0; }
        static double tail_time(const auhost_unit *u) { (void)u; return 0; }
        static int64_t save_state(const auhost_unit *u, uint8_t *b, uint64_t cap) {
            if (b && cap >= sizeof(float)) memcpy(b, &((state *)u->unit_data)->gain, sizeof(float));
            return sizeof(float);
        }
        static bool restore_state(const auhost_unit *u, const uint8_t *d, uint64_t n) {
            if (n != sizeof(float)) return false;
            memcpy(&((state *)u->unit_data)->gain, d, sizeof(float));
            return true;
        }
        static uint32_t preset_count(const auhost_unit *u) { (void)u; return 0; }
        static const char *preset_name(const auhost_unit *u, uint32_t i) { (void)u; (void)i; return NULL; }
        static uint32_t preset_values(const auhost_unit *u, uint32_t i, auhost_parameter_value *v, uint32_t c) { (void)u; (void)i; (void)v; (void)c; return 0; }
        static void destroy(const auhost_unit *u) { free(u->unit_data); free((void *)u); }

        /* The bad libraries of the probe tests: a constructor that aborts or never returns,
           a factory that reports a huge unit count. */
        #ifdef CONSTRUCTOR_ABORTS
        __attribute__((constructor)) static void constructor(void) { abort(); }
        #endif
        #ifdef CONSTRUCTOR_LOOPS
        __attribute__((constructor)) static void constructor(void) { for (;;) __asm__ volatile("" ::: "memory"); }
        #endif
        #ifndef UNIT_COUNT
        #define UNIT_COUNT 1
        #endif

        /* A library that behaves only on its first load (the probe child's): it counts its
           loads in PATH.loads, and from the second on runs SECOND_LOAD (abort(), a failing
           return, a huge unit count). UNIT_COUNT_GROWS: unit_count answers 1 on its first
           call in a process, UNIT_COUNT_GROWS after. */
        static uint32_t reported_units = UNIT_COUNT;
        #ifdef SECOND_LOAD
        #include <stdio.h>
        static int load_number(const char *path) {
            char name[4096];
            snprintf(name, sizeof name, "%s.loads", path);
            int n = 0;
            FILE *f = fopen(name, "r");
            if (f) { if (fscanf(f, "%d", &n) != 1) n = 0; fclose(f); }
            n++;
            f = fopen(name, "w");
            if (f) { fprintf(f, "%d", n); fclose(f); }
            return n;
        }
        #endif
        static bool init(const char *path, char *m, uint32_t c) {
            (void)path; (void)m; (void)c;
        #ifdef SECOND_LOAD
            if (load_number(path) >= 2) { SECOND_LOAD; }
        #endif
            return INIT_RESULT;
        }
        #ifdef UNIT_COUNT_GROWS
        static uint32_t unit_count(void) { static int calls; return calls++ == 0 ? reported_units : UNIT_COUNT_GROWS; }
        #else
        static uint32_t unit_count(void) { return reported_units; }
        #endif
        static const auhost_unit_description description = {
            .type = 0x61756678, .subtype = 0x6367616e, .manufacturer = 0x54657374,
            .name = "C Gain", .manufacturer_name = "Test", .version = "1.0.0", .category = "Utility",
            .input_bus_count = 1, .input_channels = {2}, .output_bus_count = 1, .output_channels = {2},
        };
        static const auhost_unit_description *unit_description(uint32_t i) { return i == 0 ? &description : NULL; }
        static const auhost_unit *create_unit(uint32_t i, const auhost_host_info *h) {
            (void)h;
            if (i != 0) return NULL;
            auhost_unit *u = calloc(1, sizeof *u);
            state *st = calloc(1, sizeof *st);
            st->gain = 1;
            u->struct_size = sizeof *u; u->unit_data = st;
            u->parameter_count = parameter_count; u->parameter_info = parameter_info;
            u->get_parameter = get_parameter; u->set_parameter = set_parameter;
            u->initialize = initialize; u->uninitialize = uninitialize; u->render = render; u->reset = reset;
            u->latency = latency; u->tail_time = tail_time; u->save_state = save_state; u->restore_state = restore_state;
            u->preset_count = preset_count; u->preset_name = preset_name; u->preset_values = preset_values;
            u->destroy = destroy;
        #ifdef MIDI_OUTPUT
            u->get_extension = get_extension;
        #endif
        #if ABI_VERSION == 1
            u->struct_size = offsetof(auhost_unit, get_extension);
        #endif
            return u;
        }
        static const auhost_plugin_entry_t entry = { ABI_VERSION, 0, init, unit_count, unit_description, create_unit };
        const auhost_plugin_entry_t *auhost_plugin_entry(void) { return &entry; }
        """

    /// A library with no entry symbol.
    static let noSymbol = "int some_function(void) { return 42; }\n"

    /// A library that needs a symbol nobody provides: dlopen with RTLD_NOW fails.
    static let unresolvedSymbol = """
        extern void auhost_test_missing_function(void);
        void call_it(void) { auhost_test_missing_function(); }
        """

    /// A fresh private folder (mode 0755) under one folder of the test process's in the
    /// system's temporary folder, which goes when the process exits (a loaded library's
    /// folder is kept until then).
    static func makeFolder(_ name: String) throws -> URL {
        let folder = root.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        return folder
    }

    /// `auhost-native-PID`, removed at exit.
    static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-native-\(getpid())")
        atexit { try? FileManager.default.removeItem(at: CLibraryFixtures.root) }
        return root
    }()

    /// Compiles `source` into `folder/name` with `cc -shared`; extra `-D` definitions allowed.
    @discardableResult
    static func build(_ source: String, named name: String, in folder: URL, defines: [String] = []) throws -> URL {
        let sourceFile = folder.appendingPathComponent(name + ".c")
        try source.write(to: sourceFile, atomically: true, encoding: .utf8)
        let library = folder.appendingPathComponent(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-shared", "-fPIC", "-std=c11", "-Wall", "-I", abiInclude] + defines.map { "-D\($0)" }
            + ["-o", library.path, sourceFile.path]
        let errors = Pipe()
        process.standardError = errors
        try ChildProcess.launch(process)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc failed for \(name): \(message)")
        return library
    }

    /// The good C unit, with the given ABI version and `init` result.
    @discardableResult
    static func buildGoodUnit(
        named name: String, in folder: URL, abiVersion: UInt32 = 1, initSucceeds: Bool = true, extraDefines: [String] = []
    ) throws -> URL {
        try build(goodUnit, named: name, in: folder, defines: ["ABI_VERSION=\(abiVersion)u", "INIT_RESULT=\(initSucceeds ? "true" : "false")"] + extraDefines)
    }
}
