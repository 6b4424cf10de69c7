/* The error-jump macros of Apple's AssertMacros.h that Core Audio sample code uses
   (PlaySoftMIDI's `require_noerr(result = …, home)`), for AUHost's AudioToolbox on Linux:
   each jumps to its label when the condition fails, printing nothing. Written from Apple's
   public documentation. */
#ifndef AUHOST_ASSERTMACROS_H
#define AUHOST_ASSERTMACROS_H

#define __Require(assertion, exceptionLabel) do { if (__builtin_expect(!(assertion), 0)) goto exceptionLabel; } while (0)
#define __Require_noErr(errorCode, exceptionLabel) do { if (__builtin_expect(0 != (errorCode), 0)) goto exceptionLabel; } while (0)
#define __Require_Action(assertion, exceptionLabel, action) \
    do { if (__builtin_expect(!(assertion), 0)) { { action; } goto exceptionLabel; } } while (0)
#define __Require_noErr_Action(errorCode, exceptionLabel, action) \
    do { if (__builtin_expect(0 != (errorCode), 0)) { { action; } goto exceptionLabel; } } while (0)
#define __Verify(assertion) do { (void)(assertion); } while (0)
#define __Verify_noErr(errorCode) do { (void)(errorCode); } while (0)
#define __Check(assertion) do { (void)(assertion); } while (0)
#define __Check_noErr(errorCode) do { (void)(errorCode); } while (0)

#define require(assertion, exceptionLabel) __Require(assertion, exceptionLabel)
#define require_noerr(errorCode, exceptionLabel) __Require_noErr(errorCode, exceptionLabel)
#define require_action(assertion, exceptionLabel, action) __Require_Action(assertion, exceptionLabel, action)
#define require_noerr_action(errorCode, exceptionLabel, action) __Require_noErr_Action(errorCode, exceptionLabel, action)
#define verify(assertion) __Verify(assertion)
#define verify_noerr(errorCode) __Verify_noErr(errorCode)
#define check(assertion) __Check(assertion)
#define check_noerr(errorCode) __Check_noErr(errorCode)

#endif
