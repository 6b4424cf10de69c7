// Fixture LV2 plugins for the failure modes AUHost must survive (Tests/AULV2Tests).
// One shared library, several descriptors; the tests write the Turtle for each into a
// temporary LV2_PATH bundle next to a copy of this library.
#include "lv2_fixtures.h"
#include "hostile.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include <lv2/core/lv2.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/util.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/log/log.h>
#include <lv2/options/options.h>
#include <lv2/state/state.h>
#include <lv2/time/time.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

LV2_Handle instantiate_passthrough(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                          const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle; (void)features;
    return calloc(1, sizeof(Passthrough));
}

static LV2_Handle instantiate_null(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                   const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle; (void)features;
    return NULL;
}

void connect_port(LV2_Handle instance, uint32_t port, void *data) {
    Passthrough *self = (Passthrough *)instance;
    if (port == 0) self->input = (const float *)data;
    else if (port == 1) self->output = (float *)data;
}

void run_passthrough(LV2_Handle instance, uint32_t frames) {
    Passthrough *self = (Passthrough *)instance;
    for (uint32_t i = 0; i < frames; ++i) self->output[i] = self->input[i];
}

/* Writes the block length it was given into every output sample (the fixed-block fixture). */
static void run_block_length(LV2_Handle instance, uint32_t frames) {
    Passthrough *self = (Passthrough *)instance;
    for (uint32_t i = 0; i < frames; ++i) self->output[i] = (float)frames;
}

static void run_crash(LV2_Handle instance, uint32_t frames) {
    (void)instance; (void)frames;
    raise(SIGSEGV);
}

/* Forges the probe's verdict lines on standard output, for every item index a child could
   use and in the old URI form, then crashes: the probe must still record a crash. */
static void run_forge_verdict(LV2_Handle instance, uint32_t frames) {
    (void)instance; (void)frames;
    for (int index = 0; index < 8; ++index) {
        printf("auhost-probe verdict %d works\n", index);
    }
    printf("auhost-probe verdict urn:auhost:fixture:forge-verdict works\n");
    fflush(stdout);
    raise(SIGSEGV);
}

/* Never returns (the render watchdog's fixture), from the call after the first
   AUHOST_FIXTURE_STUCK_AFTER ones (default 0), which pass audio through: a live test lets
   the priming cycle and the first periods pass. Before it loops it creates the file named by
   AUHOST_FIXTURE_STUCK_MARKER, if set, so that a test knows it is stuck. */
static void run_forever(LV2_Handle instance, uint32_t frames) {
    static long calls;
    const char *after = getenv("AUHOST_FIXTURE_STUCK_AFTER");
    if (after && calls++ < atol(after)) {
        run_passthrough(instance, frames);
        return;
    }
    const char *marker = getenv("AUHOST_FIXTURE_STUCK_MARKER");
    if (marker) {
        FILE *file = fopen(marker, "w");
        if (file) fclose(file);
    }
    for (;;) {
        __asm__ volatile("" ::: "memory");
    }
}

/* Outputs NaN: the graph mutes it, and the host must say so (render and run report it). */
static void run_nan(LV2_Handle instance, uint32_t frames) {
    Passthrough *self = (Passthrough *)instance;
    for (uint32_t i = 0; i < frames; ++i) self->output[i] = __builtin_nanf("");
}

/* Sleeps 10 µs in every run() (a nanosleep system call: what strict mode must catch). */
static void run_sleeping(LV2_Handle instance, uint32_t frames) {
    usleep(10);
    run_passthrough(instance, frames);
}

void cleanup(LV2_Handle instance) { free(instance); }

/* The worker fixture: every run() schedules a request (work from the render thread on
   every cycle, which alloc-check needs); work() answers it with 0.75, and work_response()
   makes that the output level. Until the first answer it writes 0, so its output says
   whether work() ran and its response came back (WorkerTests). */
typedef struct {
    const float *input;
    float *output;
    const LV2_Worker_Schedule *schedule;
    float level;
} Worker;

static LV2_Handle instantiate_worker(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                     const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle;
    const LV2_Worker_Schedule *schedule = NULL;
    for (int i = 0; features && features[i]; ++i) {
        if (strcmp(features[i]->URI, LV2_WORKER__schedule) == 0) schedule = (const LV2_Worker_Schedule *)features[i]->data;
    }
    if (!schedule) return NULL;
    Worker *self = calloc(1, sizeof(Worker));
    if (self) self->schedule = schedule;
    return self;
}

static void run_worker(LV2_Handle instance, uint32_t frames) {
    Worker *self = (Worker *)instance;
    const int request = 42;
    self->schedule->schedule_work(self->schedule->handle, sizeof request, &request);
    for (uint32_t i = 0; i < frames; ++i) self->output[i] = self->level;
}

static LV2_Worker_Status work(LV2_Handle instance, LV2_Worker_Respond_Function respond, LV2_Worker_Respond_Handle handle,
                              uint32_t size, const void *data) {
    (void)instance;
    if (size != sizeof(int) || *(const int *)data != 42) return LV2_WORKER_ERR_UNKNOWN;
    const float answer = 0.75f;
    return respond(handle, sizeof answer, &answer);
}

static LV2_Worker_Status work_response(LV2_Handle instance, uint32_t size, const void *body) {
    Worker *self = (Worker *)instance;
    if (size != sizeof(float)) return LV2_WORKER_ERR_UNKNOWN;
    memcpy(&self->level, body, sizeof self->level);
    return LV2_WORKER_SUCCESS;
}

static const void *worker_extension_data(const char *uri) {
    static const LV2_Worker_Interface interface = {work, work_response, NULL};
    return strcmp(uri, LV2_WORKER__interface) == 0 ? &interface : NULL;
}

/* The nominal-block fixture: writes the buf-size:nominalBlockLength option it was
   instantiated with into every output sample (0 without one), as a plugin that prepares
   for that length (Guitarix's convolvers) would read it. */
typedef struct {
    const float *input;
    float *output;
    float nominal;
} NominalBlock;

static LV2_Handle instantiate_nominal_block(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                            const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle;
    const LV2_URID_Map *map = NULL;
    const LV2_Options_Option *options = NULL;
    for (int i = 0; features && features[i]; ++i) {
        if (strcmp(features[i]->URI, LV2_URID__map) == 0) map = (const LV2_URID_Map *)features[i]->data;
        if (strcmp(features[i]->URI, LV2_OPTIONS__options) == 0) options = (const LV2_Options_Option *)features[i]->data;
    }
    if (!map || !options) return NULL;
    NominalBlock *self = calloc(1, sizeof(NominalBlock));
    if (!self) return NULL;
    const LV2_URID nominal = map->map(map->handle, LV2_BUF_SIZE__nominalBlockLength);
    const LV2_URID atomInt = map->map(map->handle, LV2_ATOM__Int);
    for (const LV2_Options_Option *option = options; option->key; ++option) {
        if (option->key == nominal && option->type == atomInt) self->nominal = (float)*(const int32_t *)option->value;
    }
    return self;
}

static void run_nominal_block(LV2_Handle instance, uint32_t frames) {
    NominalBlock *self = (NominalBlock *)instance;
    for (uint32_t i = 0; i < frames; ++i) self->output[i] = self->nominal;
}

/* The chatty fixture: a pass-through that prints to standard output, as some plugins do
   ("using block size: 1024"): once from instantiate() through stdio and once from its first
   run() through write(2). auhost's standard output must never carry it. */
typedef struct {
    const float *input;
    float *output;
    int spoke;
} Chatty;

static LV2_Handle instantiate_chatty(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                     const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle; (void)features;
    printf("chatty fixture: instantiated\n");
    fflush(stdout);
    return calloc(1, sizeof(Chatty));
}

static void run_chatty(LV2_Handle instance, uint32_t frames) {
    Chatty *self = (Chatty *)instance;
    if (!self->spoke) {
        static const char line[] = "chatty fixture: running\n";
        ssize_t written = write(1, line, sizeof line - 1);
        (void)written;
        self->spoke = 1;
    }
    run_passthrough(instance, frames);
}

/* The transport fixture: reads time:Position objects at its atom input (port 2) and writes
   speed / 2 + beatsPerMinute / 1000 of the latest into every output sample (-0.5 before
   any): 0.59 rolling at 90 BPM, 0.09 stopped at 90, so a render shows whether the plugin
   saw a rolling transport, and at what tempo. */
typedef struct {
    const float *input;
    float *output;
    const LV2_Atom_Sequence *control;
    LV2_URID object, blank, position, speed, beatsPerMinute, atomFloat;
    float lastSpeed, lastBPM, seen;
} Transport;

static LV2_Handle instantiate_transport(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                        const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle;
    const LV2_URID_Map *map = NULL;
    for (int i = 0; features && features[i]; ++i) {
        if (strcmp(features[i]->URI, LV2_URID__map) == 0) map = (const LV2_URID_Map *)features[i]->data;
    }
    if (!map) return NULL;
    Transport *self = calloc(1, sizeof(Transport));
    if (!self) return NULL;
    self->object = map->map(map->handle, LV2_ATOM__Object);
    self->blank = map->map(map->handle, LV2_ATOM__Blank);
    self->position = map->map(map->handle, LV2_TIME__Position);
    self->speed = map->map(map->handle, LV2_TIME__speed);
    self->beatsPerMinute = map->map(map->handle, LV2_TIME__beatsPerMinute);
    self->atomFloat = map->map(map->handle, LV2_ATOM__Float);
    return self;
}

static void connect_transport(LV2_Handle instance, uint32_t port, void *data) {
    Transport *self = (Transport *)instance;
    if (port == 0) self->input = (const float *)data;
    else if (port == 1) self->output = (float *)data;
    else if (port == 2) self->control = (const LV2_Atom_Sequence *)data;
}

static void run_transport(LV2_Handle instance, uint32_t frames) {
    Transport *self = (Transport *)instance;
    if (self->control) {
        LV2_ATOM_SEQUENCE_FOREACH(self->control, event) {
            if (event->body.type != self->object && event->body.type != self->blank) continue;
            const LV2_Atom_Object *object = (const LV2_Atom_Object *)&event->body;
            if (object->body.otype != self->position) continue;
            const LV2_Atom *speed = NULL, *bpm = NULL;
            lv2_atom_object_get(object, self->speed, &speed, self->beatsPerMinute, &bpm, 0);
            if (speed && speed->type == self->atomFloat) self->lastSpeed = ((const LV2_Atom_Float *)speed)->body;
            if (bpm && bpm->type == self->atomFloat) self->lastBPM = ((const LV2_Atom_Float *)bpm)->body;
            self->seen = 1;
        }
    }
    const float value = self->seen ? self->lastSpeed / 2 + self->lastBPM / 1000 : -0.5f;
    for (uint32_t i = 0; i < frames; ++i) self->output[i] = value;
}

/* The data of the feature `uri` among `features`, or NULL. */
static const void *find_feature(const LV2_Feature *const *features, const char *uri) {
    for (int i = 0; features && features[i]; ++i) {
        if (strcmp(features[i]->URI, uri) == 0) return features[i]->data;
    }
    return NULL;
}

/* A file named in its state: restore() reads the path (atom:Path, made absolute through the
   host's or lilv's map_path) and run() writes the file's size in bytes into every output
   sample (0 with none, -1 when the file does not exist); save() stores it back abstract. */
typedef struct {
    const float *input;
    float *output;
    LV2_URID file, atomPath;
    char *path;
    float size;
} PathState;

static LV2_Handle instantiate_path_state(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                         const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle;
    const LV2_URID_Map *map = find_feature(features, LV2_URID__map);
    if (!map) return NULL;
    PathState *self = calloc(1, sizeof(PathState));
    if (!self) return NULL;
    self->file = map->map(map->handle, "urn:auhost:fixture:path-state#file");
    self->atomPath = map->map(map->handle, LV2_ATOM__Path);
    return self;
}

static void run_path_state(LV2_Handle instance, uint32_t frames) {
    PathState *self = (PathState *)instance;
    for (uint32_t i = 0; i < frames; ++i) self->output[i] = self->size;
}

static LV2_State_Status save_path_state(LV2_Handle instance, LV2_State_Store_Function store, LV2_State_Handle handle,
                                        uint32_t flags, const LV2_Feature *const *features) {
    (void)flags;
    PathState *self = (PathState *)instance;
    const LV2_State_Map_Path *map = find_feature(features, LV2_STATE__mapPath);
    if (!self->path || !map) return LV2_STATE_SUCCESS;
    char *abstract = map->abstract_path(map->handle, self->path);
    store(handle, self->file, abstract, strlen(abstract) + 1, self->atomPath, LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE);
    free(abstract);
    return LV2_STATE_SUCCESS;
}

static LV2_State_Status restore_path_state(LV2_Handle instance, LV2_State_Retrieve_Function retrieve, LV2_State_Handle handle,
                                           uint32_t flags, const LV2_Feature *const *features) {
    (void)flags;
    PathState *self = (PathState *)instance;
    size_t size = 0;
    uint32_t type = 0, valueFlags = 0;
    const char *value = retrieve(handle, self->file, &size, &type, &valueFlags);
    const LV2_State_Map_Path *map = find_feature(features, LV2_STATE__mapPath);
    if (!value || type != self->atomPath || !map) return LV2_STATE_SUCCESS;
    free(self->path);
    self->path = map->absolute_path(map->handle, value);
    struct stat info;
    self->size = self->path && stat(self->path, &info) == 0 ? (float)info.st_size : -1.0f;
    return LV2_STATE_SUCCESS;
}

static const void *path_state_extension_data(const char *uri) {
    static const LV2_State_Interface state = {save_path_state, restore_path_state};
    return strcmp(uri, LV2_STATE__interface) == 0 ? &state : NULL;
}

static void cleanup_path_state(LV2_Handle instance) {
    PathState *self = (PathState *)instance;
    free(self->path);
    free(self);
}

/* The failed-start fixture: logs an error through log:log from its first run(), as a
   plugin does that could not start a thread it needs, and outputs silence. */
typedef struct {
    const float *input;
    float *output;
    const LV2_Log_Log *log;
    LV2_URID error;
    int spoke;
} FailedStart;

static LV2_Handle instantiate_failed_start(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                           const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle;
    const LV2_URID_Map *map = find_feature(features, LV2_URID__map);
    const LV2_Log_Log *log = find_feature(features, LV2_LOG__log);
    if (!map || !log) return NULL;
    FailedStart *self = calloc(1, sizeof(FailedStart));
    if (!self) return NULL;
    self->log = log;
    self->error = map->map(map->handle, LV2_LOG__Error);
    return self;
}

static void run_failed_start(LV2_Handle instance, uint32_t frames) {
    FailedStart *self = (FailedStart *)instance;
    if (!self->spoke) {
        self->log->printf(self->log->handle, self->error, "cannot start the convolution thread: Operation not permitted\n");
        self->spoke = 1;
    }
    for (uint32_t i = 0; i < frames; ++i) self->output[i] = 0;
}

/* Delays its input by the frames the file "latency" of its bundle held when it was
   instantiated (0 without one) and reports them on its lv2:reportsLatency output (port 2):
   a fresh instance's latency changes when the file does. */
typedef struct {
    const float *input;
    float *output;
    float *latency;
    uint32_t delay;
    uint32_t position;
    float ring[4096];
} FileLatency;

static LV2_Handle instantiate_file_latency(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                           const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)features;
    FileLatency *self = calloc(1, sizeof(FileLatency));
    if (!self) return NULL;
    char path[4096];
    size_t length = strlen(bundle);
    snprintf(path, sizeof path, "%s%slatency", bundle, length > 0 && bundle[length - 1] == '/' ? "" : "/");
    FILE *file = fopen(path, "r");
    unsigned value = 0;
    if (file) {
        if (fscanf(file, "%u", &value) != 1) value = 0;
        fclose(file);
    }
    self->delay = value < 4096 ? value : 4095;
    return self;
}

static void connect_file_latency(LV2_Handle instance, uint32_t port, void *data) {
    FileLatency *self = (FileLatency *)instance;
    if (port == 0) self->input = (const float *)data;
    else if (port == 1) self->output = (float *)data;
    else if (port == 2) self->latency = (float *)data;
}

static void run_file_latency(LV2_Handle instance, uint32_t frames) {
    FileLatency *self = (FileLatency *)instance;
    for (uint32_t i = 0; i < frames; ++i) {
        self->ring[self->position] = self->input[i];
        self->output[i] = self->ring[(self->position + 4096 - self->delay) % 4096];
        self->position = (self->position + 1) % 4096;
    }
    if (self->latency) *self->latency = (float)self->delay;
}

static const LV2_Descriptor descriptors[] = {
    {"urn:auhost:fixture:passthrough", instantiate_passthrough, connect_port, NULL, run_passthrough, NULL, cleanup, NULL},
    {"urn:auhost:fixture:needs-feature", instantiate_passthrough, connect_port, NULL, run_passthrough, NULL, cleanup, NULL},
    {"urn:auhost:fixture:null-instance", instantiate_null, connect_port, NULL, run_passthrough, NULL, cleanup, NULL},
    {"urn:auhost:fixture:crash-in-run", instantiate_passthrough, connect_port, NULL, run_crash, NULL, cleanup, NULL},
    {"urn:auhost:fixture:bad-turtle", instantiate_passthrough, connect_port, NULL, run_passthrough, NULL, cleanup, NULL},
    {"urn:auhost:fixture:missing-binary", instantiate_passthrough, connect_port, NULL, run_passthrough, NULL, cleanup, NULL},
    {"urn:auhost:fixture:fixed-block", instantiate_passthrough, connect_port, NULL, run_block_length, NULL, cleanup, NULL},
    {"urn:auhost:fixture:forge-verdict", instantiate_passthrough, connect_port, NULL, run_forge_verdict, NULL, cleanup, NULL},
    {"urn:auhost:fixture:run-forever", instantiate_passthrough, connect_port, NULL, run_forever, NULL, cleanup, NULL},
    {"urn:auhost:fixture:nan-output", instantiate_passthrough, connect_port, NULL, run_nan, NULL, cleanup, NULL},
    {"urn:auhost:fixture:sleep-in-run", instantiate_passthrough, connect_port, NULL, run_sleeping, NULL, cleanup, NULL},
    {"urn:auhost:fixture:worker", instantiate_worker, connect_port, NULL, run_worker, NULL, cleanup, worker_extension_data},
    {"urn:auhost:fixture:nominal-block", instantiate_nominal_block, connect_port, NULL, run_nominal_block, NULL, cleanup, NULL},
    {"urn:auhost:fixture:chatty", instantiate_chatty, connect_port, NULL, run_chatty, NULL, cleanup, NULL},
    {"urn:auhost:fixture:transport", instantiate_transport, connect_transport, NULL, run_transport, NULL, cleanup, NULL},
    {"urn:auhost:fixture:failed-start", instantiate_failed_start, connect_port, NULL, run_failed_start, NULL, cleanup, NULL},
    {"urn:auhost:fixture:path-state", instantiate_path_state, connect_port, NULL, run_path_state, NULL, cleanup_path_state, path_state_extension_data},
    {"urn:auhost:fixture:abort-in-instantiate", hostile_instantiate_abort, connect_port, NULL, run_passthrough, NULL, cleanup, NULL},
    {"urn:auhost:fixture:fork-in-instantiate", hostile_instantiate_fork, connect_port, NULL, run_passthrough, NULL, cleanup, NULL},
    {"urn:auhost:fixture:exit-in-run", instantiate_passthrough, connect_port, NULL, hostile_run_exit, NULL, cleanup, NULL},
    {"urn:auhost:fixture:stdout-spam", instantiate_passthrough, connect_port, NULL, hostile_run_stdout_spam, NULL, cleanup, NULL},
    {"urn:auhost:fixture:sleep-long", instantiate_passthrough, connect_port, NULL, hostile_run_sleep_long, NULL, cleanup, NULL},
    {"urn:auhost:fixture:write-past-end", instantiate_passthrough, connect_port, NULL, hostile_run_write_past_end, NULL, cleanup, NULL},
    {"urn:auhost:fixture:file-latency", instantiate_file_latency, connect_file_latency, NULL, run_file_latency, NULL, cleanup, NULL},
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}

int auhost_lv2_fixtures_count(void) { return (int)(sizeof descriptors / sizeof descriptors[0]); }
