/** Rows of a hex dump: offset, 16 bytes in hex (two groups of 8), and their ASCII (dots for the rest). */
export interface HexRow {
  offset: string;
  hex: string;
  ascii: string;
}

export function hexRows(bytes: Uint8Array, width = 16): HexRow[] {
  const rows: HexRow[] = [];
  for (let o = 0; o < bytes.length; o += width) {
    const slice = bytes.subarray(o, Math.min(bytes.length, o + width));
    const cells: string[] = [];
    let ascii = '';
    for (let i = 0; i < width; i++) {
      if (i === width / 2) cells.push('');
      const b = slice[i];
      cells.push(b === undefined ? '  ' : b.toString(16).padStart(2, '0'));
      if (b !== undefined) ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
    }
    rows.push({ offset: o.toString(16).padStart(4, '0'), hex: cells.join(' '), ascii });
  }
  return rows;
}

/** Time since the first packet, as the list shows it (microseconds). */
export function formatTime(seconds: number): string {
  return seconds.toFixed(6);
}
