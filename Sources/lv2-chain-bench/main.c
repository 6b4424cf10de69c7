// lv2-chain-bench: the reference chain of `auhost bench graph`, run by a plain C loop that
// calls the LV2 plugins directly through lilv (no graph, no Swift): the baseline for the
// graph's host overhead. Stereo, 48 kHz; prints one line `c-loop ns/cycle=N`.
//
//     .build/release/lv2-chain-bench [cycles] [frames]
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/options/options.h>
#include <lv2/urid/urid.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *chain[] = {
    "http://gareus.org/oss/lv2/fil4#stereo",
    "http://plugin.org.uk/swh-plugins/sc4",
    "http://drobilla.net/plugins/mda/Delay",
    "http://drobilla.net/plugins/mda/Ambience",
    "http://gareus.org/oss/lv2/dpl#stereo",
};
enum { CHAIN = 5, MAX_FRAMES = 4096, ATOM_CAPACITY = 8192, MAX_URIS = 256 };

// A URID map: a fixed table, filled before the loop.
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

static uint64_t now_ns(void) {
    struct timespec spec;
    clock_gettime(CLOCK_MONOTONIC, &spec);
    return (uint64_t)spec.tv_sec * 1000000000u + (uint64_t)spec.tv_nsec;
}

int main(int argc, char **argv) {
    long cycles = argc > 1 ? atol(argv[1]) : 20000;
    int frames = argc > 2 ? atoi(argv[2]) : 64;
    if (cycles <= 0 || frames <= 0 || frames > MAX_FRAMES) { fprintf(stderr, "usage: lv2-chain-bench [cycles] [frames<=4096]\n"); return 64; }
    const double rate = 48000;

    LilvWorld *world = lilv_world_new();
    lilv_world_load_all(world);
    const LilvPlugins *plugins = lilv_world_get_all_plugins(world);
    LilvNode *audio_port = lilv_new_uri(world, LV2_CORE__AudioPort);
    LilvNode *control = lilv_new_uri(world, LV2_CORE__ControlPort);
    LilvNode *atom_port = lilv_new_uri(world, LV2_ATOM__AtomPort);
    LilvNode *input = lilv_new_uri(world, LV2_CORE__InputPort);

    LV2_URID_Map map = {NULL, map_uri};
    LV2_URID_Unmap unmap = {NULL, unmap_uri};
    int32_t block = MAX_FRAMES, min_block = 1;
    int32_t sequence_size = ATOM_CAPACITY;
    float sample_rate = (float)rate;
    LV2_Options_Option options[] = {
        {LV2_OPTIONS_INSTANCE, 0, map_uri(NULL, LV2_BUF_SIZE__maxBlockLength), sizeof(int32_t), map_uri(NULL, LV2_ATOM__Int), &block},
        {LV2_OPTIONS_INSTANCE, 0, map_uri(NULL, LV2_BUF_SIZE__minBlockLength), sizeof(int32_t), map_uri(NULL, LV2_ATOM__Int), &min_block},
        {LV2_OPTIONS_INSTANCE, 0, map_uri(NULL, LV2_BUF_SIZE__sequenceSize), sizeof(int32_t), map_uri(NULL, LV2_ATOM__Int), &sequence_size},
        {LV2_OPTIONS_INSTANCE, 0, map_uri(NULL, "http://lv2plug.in/ns/ext/parameters#sampleRate"), sizeof(float), map_uri(NULL, LV2_ATOM__Float), &sample_rate},
        {LV2_OPTIONS_INSTANCE, 0, 0, 0, 0, NULL},
    };
    LV2_Feature map_feature = {LV2_URID__map, &map}, unmap_feature = {LV2_URID__unmap, &unmap};
    LV2_Feature options_feature = {LV2_OPTIONS__options, options};
    LV2_Feature bounded = {LV2_BUF_SIZE__boundedBlockLength, NULL};
    const LV2_Feature *features[] = {&map_feature, &unmap_feature, &options_feature, &bounded, NULL};
    LV2_URID sequence_type = map_uri(NULL, LV2_ATOM__Sequence), chunk_type = map_uri(NULL, LV2_ATOM__Chunk);

    // Stereo buffers between the plugins: stage i reads audio[i], writes audio[i + 1].
    static float audio[CHAIN + 1][2][MAX_FRAMES];
    for (int f = 0; f < MAX_FRAMES; f++) audio[0][0][f] = audio[0][1][f] = 0.3f * sinf(0.1f * (float)f);
    LilvInstance *instances[CHAIN];
    // Output atom ports get their capacity back before every run (the plugin overwrites it).
    LV2_Atom_Sequence *notify[16];
    int notify_count = 0;
    for (int i = 0; i < CHAIN; i++) {
        LilvNode *uri = lilv_new_uri(world, chain[i]);
        const LilvPlugin *plugin = lilv_plugins_get_by_uri(plugins, uri);
        lilv_node_free(uri);
        if (!plugin) { fprintf(stderr, "lv2-chain-bench: %s is not installed\n", chain[i]); return 1; }
        instances[i] = lilv_plugin_instantiate(plugin, rate, features);
        if (!instances[i]) { fprintf(stderr, "lv2-chain-bench: %s failed to instantiate\n", chain[i]); return 1; }
        uint32_t ports = lilv_plugin_get_num_ports(plugin);
        float *mins = calloc(ports, sizeof(float)), *maxs = calloc(ports, sizeof(float)), *defaults = calloc(ports, sizeof(float));
        lilv_plugin_get_port_ranges_float(plugin, mins, maxs, defaults);
        int audio_in = 0, audio_out = 0;
        for (uint32_t p = 0; p < ports; p++) {
            const LilvPort *port = lilv_plugin_get_port_by_index(plugin, p);
            int is_input = lilv_port_is_a(plugin, port, input);
            if (lilv_port_is_a(plugin, port, audio_port)) {
                float *buffer = is_input ? (audio_in < 2 ? audio[i][audio_in] : audio[i][1]) : (audio_out < 2 ? audio[i + 1][audio_out] : calloc(MAX_FRAMES, sizeof(float)));
                if (is_input) audio_in++; else audio_out++;
                lilv_instance_connect_port(instances[i], p, buffer);
            } else if (lilv_port_is_a(plugin, port, control)) {
                float *value = malloc(sizeof(float));
                *value = isnan(defaults[p]) ? (isnan(mins[p]) ? 0 : mins[p]) : defaults[p];
                lilv_instance_connect_port(instances[i], p, value);
            } else if (lilv_port_is_a(plugin, port, atom_port)) {
                LV2_Atom_Sequence *sequence = calloc(1, ATOM_CAPACITY);
                sequence->atom.size = is_input ? sizeof(LV2_Atom_Sequence_Body) : ATOM_CAPACITY - sizeof(LV2_Atom);
                sequence->atom.type = is_input ? sequence_type : chunk_type;
                if (!is_input && notify_count < 16) notify[notify_count++] = sequence;
                lilv_instance_connect_port(instances[i], p, sequence);
            } else {
                lilv_instance_connect_port(instances[i], p, calloc(MAX_FRAMES, sizeof(float)));
            }
        }
        if (audio_in == 1) { /* a mono input takes the left channel */ }
        free(mins); free(maxs); free(defaults);
        lilv_instance_activate(instances[i]);
    }

    // Warm up, then five timed runs; report the median.
#define RESET_NOTIFY() for (int n = 0; n < notify_count; n++) { notify[n]->atom.size = ATOM_CAPACITY - sizeof(LV2_Atom); notify[n]->atom.type = chunk_type; }
    for (long c = 0; c < 1000; c++) { RESET_NOTIFY(); for (int i = 0; i < CHAIN; i++) lilv_instance_run(instances[i], (uint32_t)frames); }
    double results[5];
    for (int run = 0; run < 5; run++) {
        uint64_t start = now_ns();
        for (long c = 0; c < cycles; c++) {
            RESET_NOTIFY();
            for (int i = 0; i < CHAIN; i++) lilv_instance_run(instances[i], (uint32_t)frames);
        }
        results[run] = (double)(now_ns() - start) / (double)cycles;
    }
    for (int a = 0; a < 5; a++) for (int b = a + 1; b < 5; b++) if (results[b] < results[a]) { double t = results[a]; results[a] = results[b]; results[b] = t; }
    printf("c-loop ns/cycle=%.0f frames=%d cycles=%ld\n", results[2], frames, cycles);
    for (int i = 0; i < CHAIN; i++) { lilv_instance_deactivate(instances[i]); lilv_instance_free(instances[i]); }
    lilv_world_free(world);
    return 0;
}
