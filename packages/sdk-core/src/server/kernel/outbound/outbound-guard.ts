import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as systemLookup } from 'node:dns/promises';
import { Agent as HttpAgent, type ClientRequestArgs } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { addressRefusal, type OutboundPolicy } from './outbound-policy.js';
import { OutboundRefusedError } from './outbound-refused.js';

/** Resolves a host name to all its addresses. */
export type OutboundResolve = (hostname: string) => Promise<LookupAddress[]>;

/** A connection about to be opened: the host as the URL names it, and the addresses that were checked. */
export interface OutboundTarget {
  host: string;
  port: number;
  addresses: readonly LookupAddress[];
}

/**
 * Opens a connection to a target whose addresses passed the policy; `open` is the default (Node's net or tls,
 * connecting to those addresses and no others).
 */
export type OutboundConnect = (target: OutboundTarget, open: () => Duplex) => Duplex;

export interface OutboundGuardOptions extends OutboundPolicy {
  /** Default: the system resolver (`dns.lookup`, every address). */
  resolve?: OutboundResolve;
  /** Default: `open()`. Tests give a network that reaches nothing but loopback. */
  connect?: OutboundConnect;
}

type ConnectionCallback = (error: Error | null, stream: Duplex) => void;

/** Opens a connection for an agent: checks the target, then `create`s the socket with the checked addresses. */
type Opener = (options: ClientRequestArgs, create: (options: ClientRequestArgs) => Duplex, callback: ConnectionCallback) => void;

/** Node's HTTP agent whose new connections are opened by the guard (asynchronously, through `callback`). */
class GuardedHttpAgent extends HttpAgent {
  constructor(private readonly opener: Opener) {
    super({ keepAlive: true });
  }

  override createConnection(options: ClientRequestArgs, callback?: ConnectionCallback): Duplex | undefined {
    this.opener(options, (pinned) => super.createConnection(pinned)!, callback!);
    return undefined;
  }
}

/** The same for HTTPS (TLS sessions are still cached and resumed by the agent). */
class GuardedHttpsAgent extends HttpsAgent {
  constructor(private readonly opener: Opener) {
    super({ keepAlive: true });
  }

  override createConnection(options: ClientRequestArgs, callback?: ConnectionCallback): Duplex | undefined {
    this.opener(options, (pinned) => super.createConnection(pinned)!, callback!);
    return undefined;
  }
}

/** A `lookup` for Node's net that answers the checked addresses, so the socket connects to nothing else. */
function pinnedLookup(addresses: readonly LookupAddress[]) {
  return (
    _hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
    const usable = wanted.length > 0 ? wanted : addresses;
    if (options.all) callback(null, [...usable]);
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}

/**
 * Outbound HTTP(S) connections under an {@link OutboundPolicy}, judged where the socket connects: each new
 * connection resolves its host once, every address must be allowed, and the socket connects to exactly those
 * addresses (a DNS answer that changes between a check and a connection has no second lookup to change into).
 * Literal IP hosts are judged the same way; a kept-alive connection is reused without resolving again. Its
 * agents never follow redirects (Node's HTTP client does not), so a 3xx reaches the caller as an answer.
 *
 * A guard is itself an `OutboundPolicy`, so it can be passed wherever one is expected (tests pass guards with a
 * resolver and a network of their own); {@link outboundGuard} gives the shared guard of a plain policy.
 *
 * @example
 * const guard = new OutboundGuard({ allowLoopback: false, allowPrivateNetworks: false });
 * http.request(url, { agent: guard.agentFor(url) });
 */
export class OutboundGuard implements OutboundPolicy {
  readonly allowLoopback: boolean;
  readonly allowPrivateNetworks: boolean;
  private readonly resolve: OutboundResolve;
  private readonly connect: OutboundConnect | undefined;
  private readonly http: HttpAgent;
  private readonly https: HttpsAgent;

  constructor(options: OutboundGuardOptions) {
    this.allowLoopback = options.allowLoopback;
    this.allowPrivateNetworks = options.allowPrivateNetworks;
    this.resolve = options.resolve ?? ((hostname) => systemLookup(hostname, { all: true }));
    this.connect = options.connect;
    const opener: Opener = (connection, create, callback) => this.open(connection, create, callback);
    this.http = new GuardedHttpAgent(opener);
    this.https = new GuardedHttpsAgent(opener);
  }

  /** The kept-alive agent for the URL's protocol. */
  agentFor(url: URL): HttpAgent {
    return url.protocol === 'https:' ? this.https : this.http;
  }

  /**
   * The addresses a connection to `host` may use: a literal host itself, a name's addresses from one lookup.
   * Rejects with an {@link OutboundRefusedError} when the name does not resolve or any address is not allowed
   * (a host cannot hide a private address behind a public one).
   */
  async checkedAddresses(host: string): Promise<LookupAddress[]> {
    const family = isIP(host);
    if (family !== 0) {
      const refused = addressRefusal(host, host, this);
      if (refused) throw refused;
      return [{ address: host, family }];
    }
    let addresses: LookupAddress[];
    try {
      addresses = await this.resolve(host);
    } catch (error) {
      throw OutboundRefusedError.unresolved(host, error);
    }
    if (addresses.length === 0) throw OutboundRefusedError.unresolved(host, undefined);
    for (const { address } of addresses) {
      const refused = addressRefusal(host, address, this);
      if (refused) throw refused;
    }
    return addresses;
  }

  /** Ends every kept-alive connection (tests, shutdown). */
  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }

  private open(options: ClientRequestArgs, create: (options: ClientRequestArgs) => Duplex, callback: ConnectionCallback): void {
    const host = (options.host ?? options.hostname ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
    const port = Number(options.port);
    this.checkedAddresses(host).then(
      (addresses) => {
        let socket: Duplex;
        try {
          const open = () => create({ ...options, lookup: pinnedLookup(addresses) });
          socket = this.connect ? this.connect({ host, port, addresses }, open) : open();
        } catch (error) {
          callback(error as Error, undefined as never);
          return;
        }
        callback(null, socket);
      },
      (error: Error) => callback(error, undefined as never),
    );
  }
}

/** One guard per policy in this process, so connections are kept alive across callers with the same policy. */
const sharedGuards = new Map<string, OutboundGuard>();

/**
 * The guard of a policy: the policy itself when it is a guard (one made with its own resolver or network), else
 * the process's shared guard for its flags.
 *
 * @example
 * const agent = outboundGuard({ allowLoopback: true, allowPrivateNetworks: false }).agentFor(url);
 */
export function outboundGuard(policy: OutboundPolicy): OutboundGuard {
  if (policy instanceof OutboundGuard) return policy;
  const key = `loopback:${policy.allowLoopback},private:${policy.allowPrivateNetworks}`;
  let guard = sharedGuards.get(key);
  if (!guard) {
    guard = new OutboundGuard({ allowLoopback: policy.allowLoopback, allowPrivateNetworks: policy.allowPrivateNetworks });
    sharedGuards.set(key, guard);
  }
  return guard;
}
