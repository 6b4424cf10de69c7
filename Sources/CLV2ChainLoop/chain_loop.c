// The benchmark baseline (see include/lv2_chain_loop.h): LV2 plugins in series, called
// directly through lilv by a plain C loop.
#include "lv2_chain_loop.h"
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/options/options.h>
#include <lv2/resize-port/resize-port.h>
#include <lv2/urid/urid.h>
#include <math.h>
#include <sndfile.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

enum { MAX_PLUGINS = 16, MIN_ATOM_CAPACITY = 8192, MAX_URIS = 256, MAX_NOTIFY = 16 };

// A URID map: a fixed table shared by every loop of the process (filled before running).
static char *uris[MAX_URIS];
static int uri_count;
static LV2_URID map_uri(LV2_URID_Map_Handle handle, const char *uri) {
    (void)handle;
    for (int i = 0; i < uri_count; i++) if (!strcmp(uris[i], uri)) return (LV2_URID)(i + 1);
    if (uri_count == MAX_URIS) return 0;
    uris[uri_count] = strdup(uri);
    return (LV2_URID)(++uri_count);
}
static const char *unmap_uri(LV2_URID_Unmap_Handle handle, LV2_URID urid) {
    (void)handle;
    return urid >= 1 && (int)urid <= uri_count ? uris[urid - 1] : NULL;
}

struct lv2_chain_loop {
    LilvWorld *world;
    int count, max_frames;
    LilvInstance *instances[MAX_PLUGINS];
    // What lv2_chain_loop_restart instantiates again: each plugin, and the buffer of each of its ports.
    const LilvPlugin *plugins[MAX_PLUGINS];
    void **ports[MAX_PLUGINS];
    double rate;
    // Stereo buffers between the plugins: plugin i reads audio[i], writes audio[i + 1].
    float *audio[MAX_PLUGINS + 1][2];
    // Output atom ports get their capacity back before every run (the plugin overwrites it).
    LV2_Atom_Sequence *notify[MAX_NOTIFY];
    uint32_t notify_capacity[MAX_NOTIFY];
    int notify_count;
    LV2_URID chunk_type;
    // Everything else allocated for ports (controls, spare buffers, sequences).
    void **owned;
    int owned_count, owned_capacity;
    // What the plugins were given at instantiation (kept alive as long as they are).
    LV2_URID_Map map;
    LV2_URID_Unmap unmap;
    int32_t block, min_block, sequence_size;
    float sample_rate;
    LV2_Options_Option options[5];
    LV2_Feature map_feature, unmap_feature, options_feature, bounded;
    const LV2_Feature *features[5];
};

static void fail(char *error, size_t size, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    if (error && size) vsnprintf(error, size, format, arguments);
    va_end(arguments);
}

static void *own(lv2_chain_loop *loop, size_t bytes) {
    if (loop->owned_count == loop->owned_capacity) {
        loop->owned_capacity = loop->owned_capacity ? 2 * loop->owned_capacity : 64;
        loop->owned = realloc(loop->owned, (size_t)loop->owned_capacity * sizeof(void *));
    }
    void *memory = calloc(1, bytes);
    loop->owned[loop->owned_count++] = memory;
    return memory;
}

// Instantiates plugin `i`, connects its ports to their buffers and activates it: 0, or -1
// (its instance then NULL).
static int start(lv2_chain_loop *loop, int i) {
    loop->instances[i] = lilv_plugin_instantiate(loop->plugins[i], loop->rate, loop->features);
    if (!loop->instances[i]) return -1;
    uint32_t ports = lilv_plugin_get_num_ports(loop->plugins[i]);
    for (uint32_t p = 0; p < ports; p++) lilv_instance_connect_port(loop->instances[i], p, loop->ports[i][p]);
    lilv_instance_activate(loop->instances[i]);
    return 0;
}

lv2_chain_loop *lv2_chain_loop_new(const char *const *chain, int count, double rate, int max_frames, char *error, size_t error_size) {
    if (count < 1 || count > MAX_PLUGINS || max_frames < 1) {
        fail(error, error_size, "a chain of 1 to %d plugins and a block of at least 1 frame", MAX_PLUGINS);
        return NULL;
    }
    lv2_chain_loop *loop = calloc(1, sizeof *loop);
    loop->count = count;
    loop->max_frames = max_frames;
    loop->rate = rate;
    loop->world = lilv_world_new();
    lilv_world_load_all(loop->world);
    const LilvPlugins *plugins = lilv_world_get_all_plugins(loop->world);
    LilvNode *audio_port = lilv_new_uri(loop->world, LV2_CORE__AudioPort);
    LilvNode *control = lilv_new_uri(loop->world, LV2_CORE__ControlPort);
    LilvNode *atom_port = lilv_new_uri(loop->world, LV2_ATOM__AtomPort);
    LilvNode *input = lilv_new_uri(loop->world, LV2_CORE__InputPort);
    LilvNode *minimum_size = lilv_new_uri(loop->world, LV2_RESIZE_PORT__minimumSize);

    loop->map = (LV2_URID_Map){NULL, map_uri};
    loop->unmap = (LV2_URID_Unmap){NULL, unmap_uri};
    loop->block = max_frames;
    loop->min_block = 1;
    loop->sample_rate = (float)rate;
    LV2_URID int_type = map_uri(NULL, LV2_ATOM__Int), float_type = map_uri(NULL, LV2_ATOM__Float);
    loop->options[0] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE, 0, map_uri(NULL, LV2_BUF_SIZE__maxBlockLength), sizeof(int32_t), int_type, &loop->block};
    loop->options[1] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE, 0, map_uri(NULL, LV2_BUF_SIZE__minBlockLength), sizeof(int32_t), int_type, &loop->min_block};
    loop->options[2] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE, 0, map_uri(NULL, LV2_BUF_SIZE__sequenceSize), sizeof(int32_t), int_type, &loop->sequence_size};
    loop->options[3] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE, 0, map_uri(NULL, "http://lv2plug.in/ns/ext/parameters#sampleRate"), sizeof(float), float_type, &loop->sample_rate};
    loop->options[4] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE, 0, 0, 0, 0, NULL};
    loop->map_feature = (LV2_Feature){LV2_URID__map, &loop->map};
    loop->unmap_feature = (LV2_Feature){LV2_URID__unmap, &loop->unmap};
    loop->options_feature = (LV2_Feature){LV2_OPTIONS__options, loop->options};
    loop->bounded = (LV2_Feature){LV2_BUF_SIZE__boundedBlockLength, NULL};
    loop->features[0] = &loop->map_feature;
    loop->features[1] = &loop->unmap_feature;
    loop->features[2] = &loop->options_feature;
    loop->features[3] = &loop->bounded;
    loop->features[4] = NULL;
    LV2_URID sequence_type = map_uri(NULL, LV2_ATOM__Sequence);
    loop->chunk_type = map_uri(NULL, LV2_ATOM__Chunk);

    for (int i = 0; i <= count; i++)
        for (int c = 0; c < 2; c++) loop->audio[i][c] = own(loop, (size_t)max_frames * sizeof(float));
    int ok = 1;
    for (int i = 0; i < count && ok; i++) {
        LilvNode *uri = lilv_new_uri(loop->world, chain[i]);
        const LilvPlugin *plugin = lilv_plugins_get_by_uri(plugins, uri);
        lilv_node_free(uri);
        if (!plugin) { fail(error, error_size, "%s is not installed", chain[i]); ok = 0; break; }
        // Atom buffers of at least 8 KiB or the largest rsz:minimumSize, as AUHost gives.
        uint32_t ports = lilv_plugin_get_num_ports(plugin);
        int atom_capacity = MIN_ATOM_CAPACITY;
        for (uint32_t p = 0; p < ports; p++) {
            LilvNodes *sizes = lilv_port_get_value(plugin, lilv_plugin_get_port_by_index(plugin, p), minimum_size);
            if (sizes && lilv_nodes_size(sizes) > 0) {
                int size = lilv_node_as_int(lilv_nodes_get_first(sizes));
                if (size > atom_capacity) atom_capacity = size;
            }
            lilv_nodes_free(sizes);
        }
        loop->sequence_size = atom_capacity;
        loop->plugins[i] = plugin;
        loop->ports[i] = own(loop, (size_t)ports * sizeof(void *));
        float *mins = calloc(ports, sizeof(float)), *maxs = calloc(ports, sizeof(float)), *defaults = calloc(ports, sizeof(float));
        lilv_plugin_get_port_ranges_float(plugin, mins, maxs, defaults);
        int audio_in = 0, audio_out = 0;
        for (uint32_t p = 0; p < ports; p++) {
            const LilvPort *port = lilv_plugin_get_port_by_index(plugin, p);
            int is_input = lilv_port_is_a(plugin, port, input);
            void *buffer;
            if (lilv_port_is_a(plugin, port, audio_port)) {
                // A mono plugin reads the left channel; extra outputs go to a spare buffer.
                int channel = is_input ? audio_in++ : audio_out++;
                buffer = channel < 2 ? loop->audio[is_input ? i : i + 1][channel] : own(loop, (size_t)max_frames * sizeof(float));
            } else if (lilv_port_is_a(plugin, port, control)) {
                float *value = own(loop, sizeof(float));
                *value = isnan(defaults[p]) ? (isnan(mins[p]) ? 0 : mins[p]) : defaults[p];
                buffer = value;
            } else if (lilv_port_is_a(plugin, port, atom_port)) {
                LV2_Atom_Sequence *sequence = own(loop, (size_t)atom_capacity);
                sequence->atom.size = is_input ? sizeof(LV2_Atom_Sequence_Body) : (uint32_t)atom_capacity - sizeof(LV2_Atom);
                sequence->atom.type = is_input ? sequence_type : loop->chunk_type;
                if (!is_input && loop->notify_count < MAX_NOTIFY) {
                    loop->notify_capacity[loop->notify_count] = (uint32_t)atom_capacity;
                    loop->notify[loop->notify_count++] = sequence;
                }
                buffer = sequence;
            } else {
                buffer = own(loop, (size_t)max_frames * sizeof(float));
            }
            loop->ports[i][p] = buffer;
        }
        free(mins); free(maxs); free(defaults);
        if (start(loop, i) != 0) { fail(error, error_size, "%s failed to instantiate", chain[i]); ok = 0; }
    }
    lilv_node_free(audio_port); lilv_node_free(control); lilv_node_free(atom_port); lilv_node_free(input); lilv_node_free(minimum_size);
    if (!ok) { lv2_chain_loop_free(loop); return NULL; }
    return loop;
}

int lv2_chain_loop_restart(lv2_chain_loop *loop) {
    for (int i = 0; i < loop->count; i++) {
        lilv_instance_deactivate(loop->instances[i]);
        lilv_instance_free(loop->instances[i]);
        if (start(loop, i) != 0) return -1;
    }
    return 0;
}

void lv2_chain_loop_run(lv2_chain_loop *loop, int frames) {
    for (int n = 0; n < loop->notify_count; n++) {
        loop->notify[n]->atom.size = loop->notify_capacity[n] - sizeof(LV2_Atom);
        loop->notify[n]->atom.type = loop->chunk_type;
    }
    for (int i = 0; i < loop->count; i++) lilv_instance_run(loop->instances[i], (uint32_t)frames);
}

float *lv2_chain_loop_input(lv2_chain_loop *loop, int channel) { return loop->audio[0][channel & 1]; }
const float *lv2_chain_loop_output(lv2_chain_loop *loop, int channel) { return loop->audio[loop->count][channel & 1]; }

static uint64_t now_ns(void) {
    struct timespec spec;
    clock_gettime(CLOCK_MONOTONIC, &spec);
    return (uint64_t)spec.tv_sec * 1000000000u + (uint64_t)spec.tv_nsec;
}

double lv2_chain_loop_time(lv2_chain_loop *loop, long cycles, int frames) {
    if (frames > loop->max_frames) frames = loop->max_frames;
    uint64_t start = now_ns();
    for (long c = 0; c < cycles; c++) lv2_chain_loop_run(loop, frames);
    return (double)(now_ns() - start) / (double)cycles;
}

// fsync of what is at `path` (a file or a folder): 0, or -1.
static int sync_path(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int result = fsync(fd);
    close(fd);
    return result;
}

int lv2_chain_loop_process_file(lv2_chain_loop *loop, const char *input_path, const char *output_path, int flags, char *error, size_t error_size) {
    SF_INFO in_info = {0};
    SNDFILE *in = sf_open(input_path, SFM_READ, &in_info);
    if (!in) { fail(error, error_size, "%s: %s", input_path, sf_strerror(NULL)); return -1; }
    if (in_info.channels != 2) { fail(error, error_size, "%s: %d channels; the loop runs stereo", input_path, in_info.channels); sf_close(in); return -1; }
    // Written beside the output and renamed into place, as auhost render does.
    size_t temporary_length = strlen(output_path) + 16;
    char *temporary = malloc(temporary_length);
    snprintf(temporary, temporary_length, "%s.partial", output_path);
    SF_INFO out_info = {.samplerate = in_info.samplerate, .channels = 2, .format = (in_info.format & SF_FORMAT_TYPEMASK) | (flags & LV2_CHAIN_LOOP_FLOAT ? SF_FORMAT_FLOAT : SF_FORMAT_PCM_16)};
    SNDFILE *out = sf_open(temporary, SFM_WRITE, &out_info);
    if (!out) { fail(error, error_size, "%s: %s", temporary, sf_strerror(NULL)); sf_close(in); free(temporary); return -1; }
    sf_command(out, SFC_SET_CLIPPING, NULL, SF_TRUE);
    int block = loop->max_frames, status = 0;
    float *interleaved = malloc((size_t)block * 2 * sizeof(float));
    float *left = loop->audio[0][0], *right = loop->audio[0][1];
    const float *out_left = loop->audio[loop->count][0], *out_right = loop->audio[loop->count][1];
    sf_count_t frames;
    while ((frames = sf_readf_float(in, interleaved, block)) > 0) {
        for (sf_count_t f = 0; f < frames; f++) { left[f] = interleaved[2 * f]; right[f] = interleaved[2 * f + 1]; }
        lv2_chain_loop_run(loop, (int)frames);
        for (sf_count_t f = 0; f < frames; f++) { interleaved[2 * f] = out_left[f]; interleaved[2 * f + 1] = out_right[f]; }
        if (sf_writef_float(out, interleaved, frames) != frames) { fail(error, error_size, "%s: %s", temporary, sf_strerror(out)); status = -1; break; }
    }
    free(interleaved);
    sf_close(in);
    if (sf_close(out) != 0 && status == 0) { fail(error, error_size, "%s: cannot complete the file", temporary); status = -1; }
    if (status == 0 && (flags & LV2_CHAIN_LOOP_SYNC) && sync_path(temporary) != 0) { fail(error, error_size, "%s: cannot sync", temporary); status = -1; }
    if (status == 0 && rename(temporary, output_path) != 0) { fail(error, error_size, "%s: cannot rename into place", output_path); status = -1; }
    if (status == 0 && (flags & LV2_CHAIN_LOOP_SYNC)) {
        char *folder = strdup(output_path);
        char *slash = strrchr(folder, '/');
        if (slash) *slash = 0; else strcpy(folder, ".");
        if (sync_path(*folder ? folder : "/") != 0) { fail(error, error_size, "%s: cannot sync", folder); status = -1; }
        free(folder);
    }
    if (status != 0) remove(temporary);
    free(temporary);
    return status;
}

void lv2_chain_loop_free(lv2_chain_loop *loop) {
    if (!loop) return;
    for (int i = 0; i < loop->count; i++) {
        if (loop->instances[i]) { lilv_instance_deactivate(loop->instances[i]); lilv_instance_free(loop->instances[i]); }
    }
    for (int i = 0; i < loop->owned_count; i++) free(loop->owned[i]);
    free(loop->owned);
    lilv_world_free(loop->world);
    free(loop);
}
