// lv2-chain-bench: the reference chain of docs/BENCHMARKS.md (x42 fil4 stereo EQ -> swh sc4
// -> mda Delay -> mda Ambience -> x42 dpl stereo limiter) run by the plain C loop of
// CLV2ChainLoop: no graph, no Swift. The baseline for `auhost bench graph` and `auhost render`.
//
//     lv2-chain-bench [CYCLES] [FRAMES]            in memory: prints `c-loop ns/cycle=N` (median of 5 runs)
//     lv2-chain-bench --file IN OUT [--block N]    reads IN, processes, writes OUT (16-bit) with libsndfile
//     lv2-chain-bench --files LIST OUTDIR [--block N] [--float] [--sync] [--fresh]
//                                                  each file LIST names (one path a line) through one chain,
//                                                  in order, the Nth written to OUTDIR/N.wav (32-bit
//                                                  float with --float; with --sync fsync'ed and renamed into
//                                                  place, its folder fsync'ed, as auhost render's outputs are;
//                                                  with --fresh the plugins instantiated anew for each file):
//                                                  a batch's work in plain C, the floor under `auhost render --inputs-from`
//     lv2-chain-bench --serve FRAMES               the C side of `auhost bench graph`: prints `ready`, then
//                                                  answers each line CYCLES on standard input with the ns
//                                                  per cycle of that many cycles, until end of input
#include "au_float.h"
#include "lv2_chain_loop.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *chain[] = {
    "http://gareus.org/oss/lv2/fil4#stereo",
    "http://plugin.org.uk/swh-plugins/sc4",
    "http://drobilla.net/plugins/mda/Delay",
    "http://drobilla.net/plugins/mda/Ambience",
    "http://gareus.org/oss/lv2/dpl#stereo",
};

static int usage(void) {
    fprintf(stderr, "usage: lv2-chain-bench [CYCLES] [FRAMES<=4096]\n       lv2-chain-bench --file IN OUT [--block N]\n"
                    "       lv2-chain-bench --files LIST OUTDIR [--block N] [--float] [--sync] [--fresh]\n"
                    "       lv2-chain-bench --serve FRAMES<=4096\n");
    return 64;
}

// The input `auhost bench graph` gives the graph: a sine at 0.3 over the first `frames` frames.
static void fill_input(lv2_chain_loop *loop, int frames) {
    for (int c = 0; c < 2; c++) {
        float *input = lv2_chain_loop_input(loop, c);
        for (int f = 0; f < frames; f++) input[f] = (float)sin(0.1 * f) * 0.3f;
    }
}

// Times the chain on request, so that `auhost bench graph` alternates its graph runs with
// runs of this loop without linking it. Denormals are flushed, as on the graph's side.
static int serve(int frames) {
    char error[512];
    lv2_chain_loop *loop = lv2_chain_loop_new(chain, 5, 48000, frames < 64 ? 64 : frames, error, sizeof error);
    if (!loop) { fprintf(stderr, "lv2-chain-bench: %s\n", error); return 1; }
    fill_input(loop, frames);
    au_enable_flush_denormals();
    printf("ready\n");
    fflush(stdout);
    long cycles;
    while (scanf("%ld", &cycles) == 1 && cycles > 0) {
        printf("%.17g\n", lv2_chain_loop_time(loop, cycles, frames));
        fflush(stdout);
    }
    lv2_chain_loop_free(loop);
    return 0;
}

// --files: every file of `list` through one chain, denormals flushed, as a batch's worker renders.
static int process_files(const char *list, const char *folder, int block, int flags, int fresh) {
    char error[512], line[4096], output[8192];
    FILE *paths = fopen(list, "r");
    if (!paths) { perror(list); return 1; }
    lv2_chain_loop *loop = lv2_chain_loop_new(chain, 5, 48000, block, error, sizeof error);
    if (!loop) { fprintf(stderr, "lv2-chain-bench: %s\n", error); fclose(paths); return 1; }
    au_enable_flush_denormals();
    int status = 0, count = 0;
    while (status == 0 && fgets(line, sizeof line, paths)) {
        line[strcspn(line, "\n")] = 0;
        if (!*line) continue;
        snprintf(output, sizeof output, "%s/%d.wav", folder, ++count);
        if (fresh && count > 1 && lv2_chain_loop_restart(loop) != 0) {
            fprintf(stderr, "lv2-chain-bench: a plugin failed to instantiate again\n");
            status = 1;
            break;
        }
        if (lv2_chain_loop_process_file(loop, line, output, flags, error, sizeof error) != 0) {
            fprintf(stderr, "lv2-chain-bench: %s\n", error);
            status = 1;
        }
    }
    fclose(paths);
    lv2_chain_loop_free(loop);
    return status;
}

int main(int argc, char **argv) {
    char error[512];
    if (argc > 3 && !strcmp(argv[1], "--files")) {
        int block = 512, flags = 0, fresh = 0;
        for (int i = 4; i < argc; i++) {
            if (!strcmp(argv[i], "--float")) flags |= LV2_CHAIN_LOOP_FLOAT;
            else if (!strcmp(argv[i], "--sync")) flags |= LV2_CHAIN_LOOP_SYNC;
            else if (!strcmp(argv[i], "--fresh")) fresh = 1;
            else if (!strcmp(argv[i], "--block") && i + 1 < argc) block = atoi(argv[++i]);
            else return usage();
        }
        if (block <= 0 || block > 16384) return usage();
        return process_files(argv[2], argv[3], block, flags, fresh);
    }
    if (argc > 1 && !strcmp(argv[1], "--serve")) {
        int frames = argc == 3 ? atoi(argv[2]) : 0;
        if (frames <= 0 || frames > 4096) return usage();
        return serve(frames);
    }
    if (argc > 1 && !strcmp(argv[1], "--file")) {
        if (argc != 4 && !(argc == 6 && !strcmp(argv[4], "--block"))) return usage();
        int block = argc == 6 ? atoi(argv[5]) : 1024;
        if (block <= 0 || block > 16384) return usage();
        lv2_chain_loop *loop = lv2_chain_loop_new(chain, 5, 48000, block, error, sizeof error);
        if (!loop) { fprintf(stderr, "lv2-chain-bench: %s\n", error); return 1; }
        int status = lv2_chain_loop_process_file(loop, argv[2], argv[3], 0, error, sizeof error);
        lv2_chain_loop_free(loop);
        if (status != 0) { fprintf(stderr, "lv2-chain-bench: %s\n", error); return 1; }
        return 0;
    }
    long cycles = argc > 1 ? atol(argv[1]) : 20000;
    int frames = argc > 2 ? atoi(argv[2]) : 64;
    if (argc > 3 || cycles <= 0 || frames <= 0 || frames > 4096) return usage();
    lv2_chain_loop *loop = lv2_chain_loop_new(chain, 5, 48000, 4096, error, sizeof error);
    if (!loop) { fprintf(stderr, "lv2-chain-bench: %s\n", error); return 1; }
    fill_input(loop, frames);
    lv2_chain_loop_time(loop, 1000, frames);  // warm-up
    double results[5];
    for (int run = 0; run < 5; run++) results[run] = lv2_chain_loop_time(loop, cycles, frames);
    for (int a = 0; a < 5; a++) for (int b = a + 1; b < 5; b++) if (results[b] < results[a]) { double t = results[a]; results[a] = results[b]; results[b] = t; }
    printf("c-loop ns/cycle=%.0f frames=%d cycles=%ld\n", results[2], frames, cycles);
    lv2_chain_loop_free(loop);
    return 0;
}
