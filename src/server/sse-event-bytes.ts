/**
 * Stream frames written straight into bytes, for the events a long stream is made of: an artifact update
 * of text chunks. Building each frame as JavaScript strings and encoding them afterwards costs a string
 * per piece and a flattening of the whole; here the constant parts are encoded once per stream and the
 * few that change (the sequence number, the artifact id, the texts, the flags) are written byte by byte.
 * The bytes are exactly the UTF-8 of what the string writer (sse-event-json.ts) writes; any event outside
 * the recognised shape is left to it (the writer returns false and writes nothing).
 */
import { bareText, type Fields, hasTwoKeys, isPlainObject, plain } from "./sse-event-json.ts"

const encoder = new TextEncoder()

/** A growable byte buffer that frames are written into. */
export interface ByteSink {
  buffer: Uint8Array<ArrayBuffer>
  used: number
}

/** Makes room for `n` more bytes. */
export const reserve = (sink: ByteSink, n: number): void => {
  if (sink.buffer.length - sink.used >= n) return
  const grown = new Uint8Array(Math.max(sink.buffer.length * 2, sink.used + n))
  grown.set(sink.buffer.subarray(0, sink.used))
  sink.buffer = grown
}

/** Appends `text` as UTF-8. */
export const writeText = (sink: ByteSink, text: string): void => {
  // UTF-8 needs at most 3 bytes per UTF-16 code unit.
  reserve(sink, text.length * 3)
  sink.used += encoder.encodeInto(text, sink.buffer.subarray(sink.used)).written
}

/**
 * Copies `bytes` into room already reserved. A loop: for the few bytes of a frame's short constant parts
 * it costs less than `TypedArray.prototype.set`.
 */
const copyBytes = (sink: ByteSink, bytes: Uint8Array<ArrayBuffer>): void => {
  const buffer = sink.buffer
  let at = sink.used
  for (let i = 0; i < bytes.length; i++) buffer[at++] = bytes[i]!
  sink.used = at
}

/** Copies a longer run of bytes (the frame's head with its ids, the parts' opening, the tail: 30 bytes and more) into reserved room. */
const setBytes = (sink: ByteSink, bytes: Uint8Array<ArrayBuffer>): void => {
  sink.buffer.set(bytes, sink.used)
  sink.used += bytes.length
}

/**
 * Room every frame writer reserves past what it writes next, so the constant parts that follow (up to the
 * next string, or to the end of the frame) need no check of their own: the longest run of them is the
 * frame's tail after its last string.
 */
const slack = 128

/** Appends the decimal digits of a non-negative safe integer (at most 16) into reserved room. */
const writeUint = (sink: ByteSink, n: number): void => {
  const buffer = sink.buffer
  let at = sink.used
  if (n < 10) {
    buffer[at] = 48 + n
    sink.used = at + 1
    return
  }
  if (n < 0x80000000) {
    // Integer division on 32 bits: the sequence numbers of every stream but the longest.
    const digits = n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : n < 100000 ? 5 : n < 1000000 ? 6 : n < 10000000 ? 7 :
      n < 100000000 ? 8 : n < 1000000000 ? 9 : 10
    at += digits
    sink.used = at
    let m = n
    while (m >= 10) {
      const q = (m / 10) | 0
      buffer[--at] = 48 + m - q * 10
      m = q
    }
    buffer[--at] = 48 + m
    return
  }
  let digits = 0
  for (let m = n; m > 0; m = Math.floor(m / 10)) digits++
  at += digits
  sink.used = at
  for (let m = n; m > 0; m = Math.floor(m / 10)) buffer[--at] = 48 + (m % 10)
}

/** Longest string copied character by character; longer ones go through the encoder. */
const shortString = 64

/**
 * Appends `s` as a JSON string (with its quotes) when JSON writes it as it is: no quote, backslash,
 * control character or surrogate, and leaves {@link slack} bytes of room after it. Returns false
 * otherwise (the frame is then abandoned).
 */
const writePlainString = (sink: ByteSink, s: string): boolean => {
  const n = s.length
  if (n > shortString) {
    if (!plain.test(s)) return false
    reserve(sink, n * 3 + 2 + slack)
    sink.buffer[sink.used++] = 34
    sink.used += encoder.encodeInto(s, sink.buffer.subarray(sink.used)).written
    sink.buffer[sink.used++] = 34
    return true
  }
  reserve(sink, n * 3 + 2 + slack)
  const buffer = sink.buffer
  let at = sink.used
  buffer[at++] = 34
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x20 && c < 0x80 && c !== 34 && c !== 92) {
      buffer[at++] = c
    } else if (c >= 0x80 && c < 0x800) {
      buffer[at++] = 0xc0 | (c >> 6)
      buffer[at++] = 0x80 | (c & 0x3f)
    } else if (c >= 0x800 && (c < 0xd800 || c > 0xdfff)) {
      buffer[at++] = 0xe0 | (c >> 12)
      buffer[at++] = 0x80 | ((c >> 6) & 0x3f)
      buffer[at++] = 0x80 | (c & 0x3f)
    } else {
      return false
    }
  }
  buffer[at++] = 34
  sink.used = at
  return true
}

const bytes = (text: string) => encoder.encode(text)
const PARTS = bytes(`,"parts":[`)
const ID = bytes("id: ")
const EMPTY = new Uint8Array(0)

/**
 * How one protocol version writes an artifact update of text parts, piece by piece: everything but the
 * ids, the sequence number, the texts and the flags is constant. The texts in between are the same for
 * both versions (`{"artifactId":…,"parts":[…]}` holds its two keys in that order, each text part is an
 * object and the flags follow the artifact).
 */
export interface ArtifactFrameDialect {
  /** The event up to its artifact's id: `{"kind":"artifact-update","taskId":…,"contextId":…,"artifact":{"artifactId":`. */
  readonly head: (taskId: string, contextId: string) => string
  /** A text part up to its text: `{"kind":"text","text":`. */
  readonly textPart: string
  /** What `append: true` and `append: false` are written as (either may be nothing). */
  readonly appendTrue: string
  readonly appendFalse: string
  /** What `lastChunk: true` and `lastChunk: false` are written as. */
  readonly lastChunkTrue: string
  readonly lastChunkFalse: string
  /** What closes the event after its flags. */
  readonly end: string
}

/** A2A 0.3: the model's artifact-update as it is, `{"kind":"artifact-update",…}`, both flags as given. */
export const artifactFrames03: ArtifactFrameDialect = {
  head: (t, c) => `{"kind":"artifact-update","taskId":"${t}","contextId":"${c}","artifact":{"artifactId":`,
  textPart: `{"kind":"text","text":`,
  appendTrue: `,"append":true`,
  appendFalse: `,"append":false`,
  lastChunkTrue: `,"lastChunk":true`,
  lastChunkFalse: `,"lastChunk":false`,
  end: "}"
}

/**
 * A2A 1.0: a `StreamResponse`, `{"artifactUpdate":{"taskId":…,"contextId":…,"artifact":{"artifactId":…,
 * "parts":[{"text":…}]},"append":true,"lastChunk":true}}`, false flags left out as ProtoJSON does (what
 * `makeStreamResponseJson` in schemas/v1/v1-json.ts writes).
 */
export const artifactFramesV1: ArtifactFrameDialect = {
  head: (t, c) => `{"artifactUpdate":{"taskId":"${t}","contextId":"${c}","artifact":{"artifactId":`,
  textPart: `{"text":`,
  appendTrue: `,"append":true`,
  appendFalse: "",
  lastChunkTrue: `,"lastChunk":true`,
  lastChunkFalse: "",
  end: "}}"
}

/**
 * A writer of one stream's frames (`id: <seq>`, then `data: ` with `prefix`, the event and `suffix`) for
 * the model's artifact updates of text parts: `{"kind":"artifact-update","taskId":…,"contextId":…,"artifact":
 * {"artifactId":…,"parts":[{"kind":"text","text":…},…]},"append":…,"lastChunk":…}`, keys in that order,
 * the flags optional, nothing else, written as `dialect` says. Returns false, leaving the sink as it was,
 * for any other event.
 */
export const makeFrameWriter = (dialect: ArtifactFrameDialect) => (prefix: string, suffix: string) => {
  const textPart = bytes(dialect.textPart)
  // The parts' opening and the first text part's head, one run of bytes.
  const partsAndText = bytes(`,"parts":[${dialect.textPart}`)
  // What follows the parts, one run per combination of the flags (absent, true, false): `]}`, the flags,
  // the end of the event and the frame's suffix.
  const flagText = (value: boolean | undefined, yes: string, no: string) => (value === undefined ? "" : value ? yes : no)
  const flagValues = [undefined, true, false] as const
  const tails = flagValues.flatMap((append) =>
    flagValues.map((last) =>
      bytes(`]}${flagText(append, dialect.appendTrue, dialect.appendFalse)}${flagText(last, dialect.lastChunkTrue, dialect.lastChunkFalse)}${dialect.end}${suffix}`)
    )
  )
  // What follows the last string of a frame (`}` and a tail) must fit in the slack; what follows any other
  // string (`},` and the next text part's head) is checked here too.
  if (1 + Math.max(...tails.map((t) => t.length)) > slack || partsAndText.length + 2 > slack) throw new Error("frame suffix too long")
  let taskId: unknown
  let contextId: unknown
  // The line break after the id line, the data line's prefix and the event up to its artifact id.
  let head = EMPTY
  /** The keys of an artifact update in the written order, flags optional; nothing else. */
  const keysInOrder = (event: Fields): boolean => {
    let k = 0
    for (const key in event) {
      switch (k) {
        case 0:
          if (key !== "kind") return false
          k = 1
          break
        case 1:
          if (key !== "taskId") return false
          k = 2
          break
        case 2:
          if (key !== "contextId") return false
          k = 3
          break
        case 3:
          if (key !== "artifact") return false
          k = 4
          break
        case 4:
          if (key === "append") k = 5
          else if (key === "lastChunk") k = 6
          else return false
          break
        case 5:
          if (key !== "lastChunk") return false
          k = 6
          break
        default:
          return false
      }
    }
    return k >= 4
  }

  /** The parts, each text part closed (the tail closes the list and the artifact). */
  const writeParts = (sink: ByteSink, parts: unknown): boolean => {
    if (!Array.isArray(parts)) return false
    if (parts.length === 0) {
      copyBytes(sink, PARTS)
      return true
    }
    for (let i = 0; i < parts.length; i++) {
      const text = bareText(parts[i])
      if (text === undefined) return false
      if (i === 0) {
        setBytes(sink, partsAndText)
      } else {
        sink.buffer[sink.used++] = 44
        copyBytes(sink, textPart)
      }
      if (!writePlainString(sink, text)) return false
      sink.buffer[sink.used++] = 125
    }
    return true
  }

  /** The index of a flag's value among absent, true and false; -1 for anything else. */
  const flagIndex = (value: unknown): number => (value === undefined ? 0 : value === true ? 1 : value === false ? 2 : -1)

  const writeEvent = (sink: ByteSink, seq: number, event: Fields): boolean => {
    if (!keysInOrder(event)) return false
    const t = event["taskId"]
    const c = event["contextId"]
    if (typeof t !== "string" || typeof c !== "string") return false
    if (t !== taskId || c !== contextId) {
      if (!plain.test(t) || !plain.test(c)) return false
      taskId = t
      contextId = c
      head = bytes(`\n${prefix}${dialect.head(t, c)}`)
    }
    const artifact = event["artifact"]
    if (!isPlainObject(artifact) || !hasTwoKeys(artifact, "artifactId", "parts")) return false
    const artifactId = artifact["artifactId"]
    if (typeof artifactId !== "string") return false
    reserve(sink, ID.length + 16 + head.length + slack)
    copyBytes(sink, ID)
    writeUint(sink, seq)
    setBytes(sink, head)
    if (!writePlainString(sink, artifactId)) return false
    const append = flagIndex(event["append"])
    const last = flagIndex(event["lastChunk"])
    if (append < 0 || last < 0 || !writeParts(sink, artifact["parts"])) return false
    setBytes(sink, tails[append * 3 + last]!)
    return true
  }

  /** Writes the frame of event `seq`, or returns false with the sink as it was. */
  return (sink: ByteSink, seq: number, event: unknown): boolean => {
    if (!isPlainObject(event) || event["kind"] !== "artifact-update") return false
    const start = sink.used
    if (writeEvent(sink, seq, event)) return true
    sink.used = start
    return false
  }
}

/** The A2A 0.3 frame writer ({@link artifactFrames03}). */
export const makeArtifactFrameWriter = makeFrameWriter(artifactFrames03)

/** The A2A 1.0 frame writer ({@link artifactFramesV1}). */
export const makeArtifactFrameWriterV1 = makeFrameWriter(artifactFramesV1)
