import { describe, expect, it } from 'vitest';
import { formatBytes, formatBytesDecimal } from './bytes';

describe('byte helpers', () => {
  it('MON-184 base 1024 counts Bytes to TB and stays in TB beyond', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(512)).toBe('512 Bytes');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 ** 2)).toBe('5 MB');
    expect(formatBytes(1024 ** 3 * 1.234, 1)).toBe('1.2 GB');
    expect(formatBytes(2 * 1024 ** 4)).toBe('2 TB');
    expect(formatBytes(1024 ** 5)).toBe('1024 TB');
  });

  it('MON-184 base 1000 counts up to YB', () => {
    expect(formatBytesDecimal(999)).toBe('999 Bytes');
    expect(formatBytesDecimal(1500)).toBe('1.5 KB');
    expect(formatBytesDecimal(1e15)).toBe('1 PB');
    expect(formatBytesDecimal(3e24)).toBe('3 YB');
    expect(formatBytesDecimal(3e27)).toBe('3000 YB');
    expect(formatBytesDecimal(-5)).toBe('0 Bytes');
  });
});
