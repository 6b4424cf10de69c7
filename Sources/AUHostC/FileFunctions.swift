import AUHost
import Foundation

/// `auhost_reader_open`: opens an audio file (anything libsndfile reads) and gives its rate,
/// channels and frames. NULL and `*error` on failure.
/// - Thread: [control]
@_cdecl("auhost_reader_open")
public func auhost_reader_open(
    _ path: UnsafePointer<CChar>, _ sampleRate: UnsafeMutablePointer<Double>, _ channels: UnsafeMutablePointer<Int32>,
    _ frames: UnsafeMutablePointer<Int64>, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> OpaquePointer? {
    do throws(AudioUnitError) {
        let reader = try AudioFileReader(path: String(cString: path), maxFramesPerRead: 4096)
        sampleRate.pointee = reader.info.sampleRate
        channels.pointee = Int32(reader.info.channels)
        frames.pointee = Int64(reader.info.frames)
        return OpaquePointer(Unmanaged.passRetained(reader).toOpaque())
    } catch let failure {
        report(failure.message, to: error)
        return nil
    }
}

/// `auhost_reader_read`: reads up to `frames` frames into the caller's planar channels (as
/// many as the file has); returns the frames read (0 at the end), -1 and `*error` on failure.
/// - Thread: [control]
@_cdecl("auhost_reader_read")
public func auhost_reader_read(
    _ reader: OpaquePointer, _ destination: UnsafePointer<UnsafePointer<Float>?>, _ frames: Int64,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int64 {
    let file = Unmanaged<AudioFileReader>.fromOpaque(UnsafeRawPointer(reader)).takeUnretainedValue()
    let table = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: file.info.channels)
    defer { table.deallocate() }
    guard planar(destination, channels: file.info.channels, frames: Int(frames), table: table) != nil else {
        report("\(file.info.path): a NULL channel pointer; expected \(file.info.channels) channels", to: error)
        return -1
    }
    var done = 0
    do throws(AudioUnitError) {
        while done < Int(frames) {
            let count = min(file.maxFramesPerRead, Int(frames) - done)
            for channel in 0..<file.info.channels { table[channel] = UnsafeMutablePointer(mutating: destination[channel]!) + done }
            let read = try file.read(into: AudioBuffers(channelPointers: table, frameCount: count))
            done += read
            if read < count { break }
        }
        return Int64(done)
    } catch let failure {
        report(failure.message, to: error)
        return -1
    }
}

/// `auhost_reader_warning`: what is wrong with the file that it still reads (cut short), or NULL.
/// - Thread: [control]
@_cdecl("auhost_reader_warning")
public func auhost_reader_warning(_ reader: OpaquePointer) -> UnsafeMutablePointer<CChar>? {
    let info = Unmanaged<AudioFileReader>.fromOpaque(UnsafeRawPointer(reader)).takeUnretainedValue().info
    return info.cutShort.flatMap { cString("\(info.path): \($0)") }
}

/// `auhost_reader_close`: closes the file.
/// - Thread: [control]
@_cdecl("auhost_reader_close")
public func auhost_reader_close(_ reader: OpaquePointer?) {
    guard let reader else { return }
    Unmanaged<AudioFileReader>.fromOpaque(UnsafeRawPointer(reader)).release()
}

/// `auhost_writer_open`: starts an audio file written atomically (an unnamed file until
/// `auhost_writer_finish`; never over an existing file unless `overwrite`). `format`: wav,
/// flac, aiff, caf or ogg (NULL: the path's extension, else wav); `bit_depth`: 16, 24 or 32f
/// (NULL: the format's default).
/// - Thread: [control]
@_cdecl("auhost_writer_open")
public func auhost_writer_open(
    _ path: UnsafePointer<CChar>, _ sampleRate: Double, _ channels: Int32, _ format: UnsafePointer<CChar>?,
    _ bitDepth: UnsafePointer<CChar>?, _ overwrite: Int32, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> OpaquePointer? {
    let file = String(cString: path)
    do throws(AudioUnitError) {
        let formatName = format.map { String(cString: $0) } ?? AudioFileFormat(fileExtensionOf: file)?.rawValue ?? "wav"
        let encoding = try AudioFileEncoding(format: formatName, bitDepth: bitDepth.map { String(cString: $0) })
        let writer = try AudioFileWriter(path: file, encoding: encoding, sampleRate: sampleRate, channels: Int(channels), overwrite: overwrite != 0)
        return OpaquePointer(Unmanaged.passRetained(writer).toOpaque())
    } catch let failure {
        report(failure.message.hasPrefix(file) ? failure.message : "\(file): \(failure.message)", to: error)
        return nil
    }
}

/// `auhost_writer_write`: appends `frames` frames of the caller's planar channels.
/// - Thread: [control]
@_cdecl("auhost_writer_write")
public func auhost_writer_write(
    _ writer: OpaquePointer, _ source: UnsafePointer<UnsafePointer<Float>?>, _ frames: Int64,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    let file = Unmanaged<AudioFileWriter>.fromOpaque(UnsafeRawPointer(writer)).takeUnretainedValue()
    let table = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: file.channels)
    defer { table.deallocate() }
    return status(error) { () throws(AudioUnitError) in
        guard planar(source, channels: file.channels, frames: Int(frames), table: table) != nil else {
            throw AudioUnitError(.invalidPropertyValue, "\(file.path): a NULL channel pointer; expected \(file.channels) channels")
        }
        var done = 0
        while done < Int(frames) {
            let count = min(4096, Int(frames) - done)
            for channel in 0..<file.channels { table[channel] = UnsafeMutablePointer(mutating: source[channel]!) + done }
            try file.write(AudioBuffers(channelPointers: table, frameCount: count))
            done += count
        }
    }
}

/// `auhost_writer_finish`: completes the file (linked into place) and frees the writer.
/// - Thread: [control]
@_cdecl("auhost_writer_finish")
public func auhost_writer_finish(_ writer: OpaquePointer, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let handle = Unmanaged<AudioFileWriter>.fromOpaque(UnsafeRawPointer(writer))
    defer { handle.release() }
    return status(error) { () throws(AudioUnitError) in try handle.takeUnretainedValue().finish() }
}

/// `auhost_writer_cancel`: abandons the file (nothing is left at its path) and frees the writer.
/// - Thread: [control]
@_cdecl("auhost_writer_cancel")
public func auhost_writer_cancel(_ writer: OpaquePointer?) {
    guard let writer else { return }
    let handle = Unmanaged<AudioFileWriter>.fromOpaque(UnsafeRawPointer(writer))
    handle.takeUnretainedValue().cancel()
    handle.release()
}
