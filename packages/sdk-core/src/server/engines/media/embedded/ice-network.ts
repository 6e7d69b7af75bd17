/**
 * Where the embedded endpoint's WebRTC transport listens and what it announces: LiveKit's `rtc.node_ip` and
 * `rtc.port_range_start/end`, for an endpoint behind a 1:1 NAT, a port forward or a relay (the loopback relay of the
 * testing kit, `startUdpRelay`). Unset: every interface, any port, each interface's own address announced.
 */
export interface IceNetworkSettings {
  /** The IPv4 address written into the host candidates instead of the interface's (the ports stay the same). */
  nodeIp?: string | undefined;
  /** Bind the UDP sockets to this local address only (default: all addresses). */
  bindAddress?: string | undefined;
  /** The UDP ports the sockets take, first and last included. */
  portRange?: readonly [number, number] | undefined;
}

/** A candidate line (`candidate:…`) with a host candidate's address replaced by `nodeIp`. */
export function announcedCandidate(candidate: string, nodeIp: string | undefined): string {
  if (!nodeIp) return candidate;
  const fields = candidate.split(' ');
  // foundation component transport priority address port typ type ...
  if (fields.length < 8 || fields[6] !== 'typ' || fields[7] !== 'host') return candidate;
  fields[4] = nodeIp;
  return fields.join(' ');
}

/** An SDP whose `a=candidate` host lines announce `nodeIp`. */
export function announcedSdp(sdp: string, nodeIp: string | undefined): string {
  if (!nodeIp) return sdp;
  return sdp.replace(/^a=(candidate:[^\r\n]*)/gm, (_line, candidate: string) => `a=${announcedCandidate(candidate, nodeIp)}`);
}
