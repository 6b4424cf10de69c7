import AUCore
#if canImport(Glibc)
import Glibc
#endif

/// FluidSynth as Debian builds it runs its voice mixing in an OpenMP parallel region of one
/// thread (`num_threads(1)`, `synth.cpu-cores` 1) in every `fluid_synth_write_float`, and
/// libgomp allocates and frees a team for every such region (`memalign` and `free` on the
/// render thread, under glibc's arena lock). This definition of libgomp's entry point,
/// exported from the executable (Package.swift: `--export-dynamic-symbol=GOMP_parallel`),
/// runs a one-thread region called on the render thread as the one thread would, by calling
/// its body, which is what OpenMP specifies for it (orphaned work-sharing constructs inside
/// see a team of one); every other region goes to libgomp's own. Public: an internal
/// function is a local symbol in an optimized build, which the linker cannot export, and
/// FluidSynth then called libgomp's (2,362 allocations and frees in 400 render calls of the
/// sampler with a bank, `auhost validate`'s `render-allocations` in a release build).
/// - Thread: [any]
@_cdecl("GOMP_parallel")
public func openMPParallel(_ body: @convention(c) (UnsafeMutableRawPointer?) -> Void, _ data: UnsafeMutableRawPointer?, _ threads: UInt32, _ flags: UInt32) {
    if threads == 1 && RenderThread.isCurrent {
        body(data)
    } else {
        libgompParallel(body, data, threads, flags)
    }
}

/// libgomp's `GOMP_parallel`: in libgomp itself, which FluidSynth brought in (it is opened
/// after the executable, `CFluidSynthLoader`, so a library that links AUHost may not see
/// it as the definition after this one), else the definition after this one.
private let libgompParallel: @convention(c) (@convention(c) (UnsafeMutableRawPointer?) -> Void, UnsafeMutableRawPointer?, UInt32, UInt32) -> Void = {
    let libgomp = dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD)
    guard let symbol = libgomp.flatMap({ dlsym($0, "GOMP_parallel") }) ?? dlsym(UnsafeMutableRawPointer(bitPattern: -1), "GOMP_parallel") else {
        fatalError("libgomp's GOMP_parallel is not loaded")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (@convention(c) (UnsafeMutableRawPointer?) -> Void, UnsafeMutableRawPointer?, UInt32, UInt32) -> Void).self)
}()
