/**
 * Internet checksums (RFC 1071) and their incremental update (RFC 1624), used to recompute IPv4
 * header, TCP and UDP checksums after anonymization.
 */

/** One's-complement sum of 16-bit big-endian words of buf[start, end), folded to 16 bits, not inverted. */
export function onesSum(buf: Uint8Array, start: number, end: number, initial = 0): number {
  let sum = initial;
  let i = start;
  const last = end - 1;
  for (; i < last; i += 2) sum += (buf[i]! << 8) | buf[i + 1]!;
  if (i === last) sum += buf[i]! << 8;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return sum;
}

/** The checksum field value for data whose one's-complement sum (with the field zeroed) is `sum`. */
export function finish(sum: number): number {
  let s = sum;
  while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
  return ~s & 0xffff;
}

/** IPv4 header checksum of the header at buf[off, off + ihlBytes), computed as if the field were zero. */
export function ipv4HeaderChecksum(buf: Uint8Array, off: number, ihlBytes: number): number {
  let sum = onesSum(buf, off, off + 10);
  sum = onesSum(buf, off + 12, off + ihlBytes, sum);
  return finish(sum);
}

/** Pseudo-header sum for TCP/UDP over IPv4 (addresses at srcOff and srcOff + 4). */
export function pseudoSumV4(buf: Uint8Array, srcOff: number, proto: number, l4Length: number): number {
  let sum = onesSum(buf, srcOff, srcOff + 8);
  sum += proto + (l4Length & 0xffff) + Math.floor(l4Length / 0x10000);
  return sum;
}

/** Pseudo-header sum for TCP/UDP over IPv6 (addresses at srcOff .. srcOff + 32). */
export function pseudoSumV6(buf: Uint8Array, srcOff: number, proto: number, l4Length: number): number {
  let sum = onesSum(buf, srcOff, srcOff + 32);
  sum += proto + (l4Length & 0xffff) + Math.floor(l4Length / 0x10000);
  return sum;
}

/**
 * Full TCP/UDP checksum: `pseudo` from pseudoSumV4/V6, the segment at buf[off, off + len) with the
 * checksum field at buf[off + fieldOff] treated as zero.
 */
export function l4Checksum(buf: Uint8Array, off: number, len: number, fieldOff: number, pseudo: number): number {
  let sum = onesSum(buf, off, off + fieldOff, pseudo);
  sum = onesSum(buf, off + fieldOff + 2, off + len, sum);
  // fieldOff is even, so the words after the field stay aligned with the segment's word boundaries.
  return finish(sum);
}

/**
 * RFC 1624 eqn. 3: the checksum after 16-bit words `oldWords` became `newWords` (both as one's sums).
 * HC' = ~(~HC + ~m + m')
 */
export function incrementalUpdate(oldChecksum: number, oldSum: number, newSum: number): number {
  let sum = (~oldChecksum & 0xffff) + (~foldSum(oldSum) & 0xffff) + foldSum(newSum);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

function foldSum(sum: number): number {
  let s = sum;
  while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
  return s;
}
