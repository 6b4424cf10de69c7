/* File conversion two ways, in this project's own words: the patterns of "Learning Core
   Audio", chapter 6's CH06_AudioConverter and CH06_ExtAudioFileConverter (whose code compiles
   unchanged here but for its file's path). Both turn kInputFileLocation into a 16-bit
   big-endian AIFF: first with an AudioConverter whose input procedure reads packets with
   AudioFileReadPackets (the end of the file as eofErr or kAudioFileEndOfFileError) and
   AudioFileWritePackets given, as the book's code gives it, the packet count where the byte
   count goes (Apple reads no byte count for constant-size packets); then with an
   ExtAudioFile whose client format is the output's, read slice by slice. Writes
   converter.aif and extaudiofile.aif in the current folder. */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreServices/CoreServices.h>

#ifndef kInputFileLocation
#define kInputFileLocation CFSTR("input.wav")
#endif

typedef struct ConversionSource {
    AudioFileID file;
    AudioStreamBasicDescription format;
    SInt64 nextPacket;
    UInt32 maxPacketSize;
    void *buffer;
} ConversionSource;

static void Check(OSStatus status, const char *what) {
    if (status == noErr) return;
    fprintf(stderr, "error: %s (%d)\n", what, (int)status);
    exit(1);
}

static AudioStreamBasicDescription BigEndianAIFFFormat(const AudioStreamBasicDescription *input) {
    AudioStreamBasicDescription format;
    memset(&format, 0, sizeof(format));
    format.mSampleRate = input->mSampleRate;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    format.mBitsPerChannel = 16;
    format.mChannelsPerFrame = input->mChannelsPerFrame;
    format.mBytesPerFrame = 2 * input->mChannelsPerFrame;
    format.mFramesPerPacket = 1;
    format.mBytesPerPacket = format.mBytesPerFrame;
    return format;
}

static AudioFileID CreateOutput(const char *name, const AudioStreamBasicDescription *format) {
    CFStringRef path = CFStringCreateWithCString(kCFAllocatorDefault, name, kCFStringEncodingUTF8);
    CFURLRef url = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, path, kCFURLPOSIXPathStyle, false);
    AudioFileID file;
    Check(AudioFileCreateWithURL(url, kAudioFileAIFFType, format, kAudioFileFlags_EraseFile, &file), name);
    CFRelease(url);
    CFRelease(path);
    return file;
}

static OSStatus ProvidePackets(AudioConverterRef converter, UInt32 *ioPackets, AudioBufferList *ioData,
                               AudioStreamPacketDescription **outDescriptions, void *userData) {
    ConversionSource *source = (ConversionSource *)userData;
    free(source->buffer);
    source->buffer = calloc(1, *ioPackets * source->maxPacketSize);
    UInt32 bytes = 0;
    OSStatus status = AudioFileReadPackets(source->file, true, &bytes, NULL, source->nextPacket, ioPackets, source->buffer);
    if ((status == eofErr || status == kAudioFileEndOfFileError) && *ioPackets) status = noErr;
    else if (status != noErr) return status;
    source->nextPacket += *ioPackets;
    ioData->mBuffers[0].mData = source->buffer;
    ioData->mBuffers[0].mDataByteSize = bytes;
    if (outDescriptions) *outDescriptions = nil;
    return status;
}

static void ConvertWithAudioConverter(void) {
    ConversionSource source = {0};
    CFURLRef url = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, kInputFileLocation, kCFURLPOSIXPathStyle, false);
    Check(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &source.file), "AudioFileOpenURL");
    CFRelease(url);
    UInt32 size = sizeof(source.format);
    Check(AudioFileGetProperty(source.file, kAudioFilePropertyDataFormat, &size, &source.format), "DataFormat");
    size = sizeof(source.maxPacketSize);
    Check(AudioFileGetProperty(source.file, kAudioFilePropertyMaximumPacketSize, &size, &source.maxPacketSize), "MaximumPacketSize");

    AudioStreamBasicDescription outputFormat = BigEndianAIFFFormat(&source.format);
    AudioFileID output = CreateOutput("converter.aif", &outputFormat);
    AudioConverterRef converter;
    Check(AudioConverterNew(&source.format, &outputFormat, &converter), "AudioConverterNew");

    UInt32 bufferBytes = 32 * 1024;
    UInt32 packetsPerBuffer = bufferBytes / outputFormat.mBytesPerPacket;
    UInt8 *outputBuffer = malloc(bufferBytes);
    UInt32 writtenPackets = 0;
    for (;;) {
        AudioBufferList converted;
        converted.mNumberBuffers = 1;
        converted.mBuffers[0].mNumberChannels = source.format.mChannelsPerFrame;
        converted.mBuffers[0].mDataByteSize = bufferBytes;
        converted.mBuffers[0].mData = outputBuffer;
        UInt32 packets = packetsPerBuffer;
        OSStatus status = AudioConverterFillComplexBuffer(converter, ProvidePackets, &source, &packets, &converted, nil);
        if (status || !packets) break;
        /* The book's call: the packet count where the byte count goes. */
        Check(AudioFileWritePackets(output, FALSE, packets, NULL, writtenPackets, &packets, converted.mBuffers[0].mData),
              "AudioFileWritePackets");
        writtenPackets += packets;
    }
    printf("AudioConverter: %u packets\n", (unsigned)writtenPackets);
    AudioConverterDispose(converter);
    AudioFileClose(output);
    AudioFileClose(source.file);
    free(outputBuffer);
    free(source.buffer);
}

static void ConvertWithExtAudioFile(void) {
    CFURLRef url = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, kInputFileLocation, kCFURLPOSIXPathStyle, false);
    ExtAudioFileRef input;
    Check(ExtAudioFileOpenURL(url, &input), "ExtAudioFileOpenURL");
    CFRelease(url);
    AudioStreamBasicDescription fileFormat;
    UInt32 size = sizeof(fileFormat);
    Check(ExtAudioFileGetProperty(input, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat), "FileDataFormat");
    AudioStreamBasicDescription clientFormat = BigEndianAIFFFormat(&fileFormat);
    Check(ExtAudioFileSetProperty(input, kExtAudioFileProperty_ClientDataFormat, sizeof(clientFormat), &clientFormat),
          "ClientDataFormat");
    AudioFileID output = CreateOutput("extaudiofile.aif", &clientFormat);

    UInt32 bufferBytes = 32 * 1024;
    UInt8 *buffer = malloc(bufferBytes);
    UInt32 writtenPackets = 0;
    for (;;) {
        AudioBufferList slice;
        slice.mNumberBuffers = 1;
        slice.mBuffers[0].mNumberChannels = clientFormat.mChannelsPerFrame;
        slice.mBuffers[0].mDataByteSize = bufferBytes;
        slice.mBuffers[0].mData = buffer;
        UInt32 frames = bufferBytes / clientFormat.mBytesPerFrame;
        Check(ExtAudioFileRead(input, &frames, &slice), "ExtAudioFileRead");
        if (frames == 0) break;
        Check(AudioFileWritePackets(output, FALSE, frames * clientFormat.mBytesPerFrame, NULL, writtenPackets, &frames, buffer),
              "AudioFileWritePackets");
        writtenPackets += frames;
    }
    printf("ExtAudioFile: %u packets\n", (unsigned)writtenPackets);
    ExtAudioFileDispose(input);
    AudioFileClose(output);
    free(buffer);
}

int main(void) {
    ConvertWithAudioConverter();
    ConvertWithExtAudioFile();
    return 0;
}
