import AUJACK
import CJack

/// The latency range JACK holds for any port of the server, by its full name (`client:port`):
/// `playback` for the playback latency, else the capture latency; nil when there is no such port.
/// - Thread: control.
public func portLatency(_ portName: String, on client: JACKClient, playback: Bool) -> (min: Int, max: Int)? {
    guard let port = jack_port_by_name(client.handle, portName) else { return nil }
    var range = jack_latency_range_t()
    jack_port_get_latency_range(port, playback ? JackPlaybackLatency : JackCaptureLatency, &range)
    return (Int(range.min), Int(range.max))
}
