#include "au_jack.h"
#include <stddef.h>

jack_client_t *au_jack_client_open(const char *client_name, const char *server_name, jack_status_t *status) {
    jack_options_t options = JackNoStartServer;
    if (server_name != NULL) {
        options |= JackServerName;
        return jack_client_open(client_name, options, status, server_name);
    }
    return jack_client_open(client_name, options, status);
}

const char *au_jack_audio_type(void) { return JACK_DEFAULT_AUDIO_TYPE; }
const char *au_jack_midi_type(void) { return JACK_DEFAULT_MIDI_TYPE; }

static void au_jack_quiet(const char *message) { (void)message; }

void au_jack_silence_library_messages(void) {
    jack_set_error_function(au_jack_quiet);
    jack_set_info_function(au_jack_quiet);
}
