import { createSocket } from 'node:dgram';

/**
 * A stand-in for a loose-routing proxy in a call's route set (RFC 3261 16.12): it records every request it is
 * sent and forwards it, unchanged, to its Request-URI's host and port. Responses go by Via, not through it.
 */
export class ForwardingProxy {
  private readonly socket = createSocket('udp4');
  /** The requests that came through, as received. */
  readonly requests: string[] = [];

  static async open(): Promise<ForwardingProxy> {
    const proxy = new ForwardingProxy();
    await new Promise<void>((resolve) => proxy.socket.bind(0, '127.0.0.1', resolve));
    proxy.socket.on('message', (data) => {
      const text = data.toString('utf8');
      const target = /^[A-Z]+ sips?:(?:[^@\s]*@)?([^:;>\s]+):(\d+)/.exec(text);
      if (!target) return;
      proxy.requests.push(text);
      proxy.socket.send(data, Number(target[2]), target[1]);
    });
    return proxy;
  }

  get port(): number {
    return this.socket.address().port;
  }

  /** The requests of `method` that came through. */
  received(method: string): string[] {
    return this.requests.filter((request) => request.startsWith(`${method} `));
  }

  close(): void {
    this.socket.close();
  }
}

/** A request's header values, in order (`Route`, `Record-Route`). */
export function headerValues(message: string, name: string): string[] {
  return message
    .split('\r\n')
    .filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
    .flatMap((line) => line.slice(name.length + 1).split(/,(?=\s*<)/))
    .map((value) => value.trim());
}
