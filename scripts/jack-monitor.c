/* A JACK client that watches a server for a given time and prints, once, the server's
 * DSP load (mean and maximum of one sample every 100 ms) and the xruns it reported.
 * Used by scripts/bench-live.sh; build: cc -O2 -o jack-monitor jack-monitor.c -ljack
 * usage: jack-monitor SERVER SECONDS */
#include <jack/jack.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_int xruns = 0;
static int on_xrun(void *arg) { (void)arg; atomic_fetch_add(&xruns, 1); return 0; }

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: jack-monitor SERVER SECONDS\n"); return 64; }
    jack_status_t status;
    jack_client_t *client = jack_client_open("monitor", JackNoStartServer | JackServerName, &status, argv[1]);
    if (!client) { fprintf(stderr, "jack-monitor: no JACK server '%s'\n", argv[1]); return 1; }
    jack_set_xrun_callback(client, on_xrun, NULL);
    if (jack_activate(client)) { fprintf(stderr, "jack-monitor: cannot activate\n"); return 1; }
    int samples = atoi(argv[2]) * 10;
    double sum = 0, peak = 0;
    for (int i = 0; i < samples; i++) {
        usleep(100000);
        double load = jack_cpu_load(client);
        sum += load;
        if (load > peak) peak = load;
    }
    printf("dsp_mean=%.2f%% dsp_max=%.2f%% xruns=%d period=%u rate=%u\n", sum / samples, peak, atomic_load(&xruns),
           jack_get_buffer_size(client), jack_get_sample_rate(client));
    jack_client_close(client);
    return 0;
}
