import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bigPipelineJobCount, bigPipelineYaml, lineLags, logPrinterScript } from './pipeline-fixtures.js';

describe('pipeline bench fixtures', () => {
  it('makes 500 jobs over five stages with a matrix and DAG needs', () => {
    const config = parse(bigPipelineYaml(500)) as Record<string, { stage?: string; extends?: string; needs?: string[]; parallel?: { matrix: Record<string, string[]>[] } }>;
    expect(bigPipelineJobCount(500)).toBe(500);
    const matrix = config.build!.parallel!.matrix[0]!;
    expect(matrix.OS!.length * matrix.ARCH!.length).toBe(100);
    expect(Object.keys(config).filter((key) => key.startsWith('lint-'))).toHaveLength(100);
    expect(config['deploy-7']!.needs).toEqual(['test-7', 'package-7']);
  });

  it('prints a program whose lines carry their time, and reads the lags back', () => {
    expect(logPrinterScript(2000, 1000)).toMatch(/^node -e '/);
    expect(lineLags(`1700000000000 xxxx\n1700000000500 xxxx\npartial`, 1700000001000)).toEqual([1000, 500]);
  });
});
