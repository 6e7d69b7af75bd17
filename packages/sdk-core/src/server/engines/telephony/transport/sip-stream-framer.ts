/** The largest message accepted on a stream (SDP offers are ~1 kB; 64 kB leaves room without inviting abuse). */
export const MAX_SIP_MESSAGE_BYTES = 64 * 1024;

/**
 * Cuts a TCP byte stream into SIP messages (RFC 3261 18.3: Content-Length is mandatory on streams). CRLF
 * keep-alives between messages are skipped.
 *
 * @example
 * const framer = new SipStreamFramer();
 * for (const frame of framer.push(chunk)) handle(frame);
 */
export class SipStreamFramer {
  private buffer: Buffer = Buffer.alloc(0);

  /** Whole messages completed by `chunk`; throws when the stream cannot be framed (the connection must close). */
  push(chunk: Buffer): Buffer[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const frames: Buffer[] = [];
    for (;;) {
      let start = 0;
      while (start < this.buffer.length && (this.buffer[start] === 0x0d || this.buffer[start] === 0x0a)) start += 1;
      if (start > 0) this.buffer = this.buffer.subarray(start);
      const headEnd = this.buffer.indexOf('\r\n\r\n');
      if (headEnd < 0) {
        if (this.buffer.length > MAX_SIP_MESSAGE_BYTES) throw new Error('SIP headers too long');
        return frames;
      }
      const head = this.buffer.subarray(0, headEnd).toString('latin1');
      const length = /^(?:content-length|l)[ \t]*:[ \t]*(\d+)[ \t]*$/im.exec(head);
      if (!length) throw new Error('Content-Length is required on a stream');
      const total = headEnd + 4 + Number(length[1]);
      if (total > MAX_SIP_MESSAGE_BYTES) throw new Error('SIP message too long');
      if (this.buffer.length < total) return frames;
      frames.push(Buffer.from(this.buffer.subarray(0, total)));
      this.buffer = this.buffer.subarray(total);
    }
  }
}
