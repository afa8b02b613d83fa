/**
 * A host that is not this machine, so Crawl Planner counts it as real and asks for a contact before
 * reaching it (src/core/identity.ts), yet that no request can reach: 224.0.0.1 is a multicast address,
 * and the kernel refuses a TCP connection to one before sending any packet (ENETUNREACH). Tests use it to
 * go past the contact check without network traffic.
 */
export const REAL_HOST_NO_TRAFFIC = 'http://224.0.0.1:9';
