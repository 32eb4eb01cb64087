// DNS rebinding: a page on another site may reach this port under a name of its own that resolves here; its
// requests carry that name in Host, and the page's origin in Origin. Both are read strictly (RFC 9110 Host:
// a host and an optional port; RFC 6454 Origin: scheme://host[:port]), since a URL parser reads a name out of
// "localhost/x", "localhost#x" or "http://user@localhost/" and drops the rest. The SDK's validateHostHeader and
// validateOriginHeader parse with new URL(), accepting those, and know no "*": hence this check of our own.

/** A host name, IPv4 address or bracketed IPv6 address, and an optional port. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;
/** A serialised origin: scheme "://" and then a Host, nothing after it (no path, not even "/"). */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/(.*)$/i;

/** Why a request's Host or Origin is refused under --allowedHosts ("*": any), or undefined when both pass. */
export function hostProblem(
  host: string | undefined,
  origin: string | undefined,
  allowed: readonly string[],
): string | undefined {
  if (allowed.includes('*')) return undefined;
  const hostName = hostNameOf(host ?? '');
  if (hostName === undefined)
    return `Forbidden: Host ${quote(host ?? '')} is not a host name and optional port`;
  if (!allowed.includes(hostName))
    return `Forbidden: Host ${quote(host!)} is not allowed (see --allowedHosts)`;
  // Browsers send Origin; other clients need not.
  if (origin === undefined) return undefined;
  const match = ORIGIN.exec(origin);
  const originName = match === null ? undefined : hostNameOf(match[1]!);
  if (originName === undefined)
    return `Forbidden: Origin ${quote(origin)} is not a scheme, host name and optional port`;
  if (!allowed.includes(originName))
    return `Forbidden: Origin ${quote(origin)} is not allowed (see --allowedHosts)`;
  return undefined;
}

/** The name in "host[:port]" as --allowedHosts lists names (lower case, IPv6 in brackets); else undefined. */
function hostNameOf(text: string): string | undefined {
  const match = HOST.exec(text);
  if (match === null || Number(match[2] ?? 0) > 65535) return undefined;
  try {
    return new URL(`http://${match[1]}`).hostname;
  } catch {
    return undefined;
  }
}

function quote(text: string): string {
  return JSON.stringify(text.slice(0, 100));
}
