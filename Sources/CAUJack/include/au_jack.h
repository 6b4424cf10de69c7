#ifndef AU_JACK_H
#define AU_JACK_H
#include <jack/jack.h>

/// jack_client_open without varargs: never starts a server; names one when server_name is
/// not NULL. Thread: control.
jack_client_t *au_jack_client_open(const char *client_name, const char *server_name, jack_status_t *status);

/// The port type strings (JACK_DEFAULT_AUDIO_TYPE, JACK_DEFAULT_MIDI_TYPE).
const char *au_jack_audio_type(void);
const char *au_jack_midi_type(void);

/// Silences libjack's own error and info printing (the host reports errors itself).
void au_jack_silence_library_messages(void);

#endif
