import fs from 'node:fs/promises';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ActionableError, ConfigError, describeStartupFailure } from '../src/server';

describe('describeStartupFailure', () => {
  it('prints an actionable error as its message alone', () => {
    expect(describeStartupFailure(new ConfigError('PORT must be a number'))).toBe('PORT must be a number');
    expect(new ConfigError('x')).toBeInstanceOf(ActionableError);
  });

  it('names the file of a file-system error', async () => {
    const error = await fs.readFile('/nonexistent/radar/tiers.csv').catch((caught: unknown) => caught);
    expect(describeStartupFailure(error)).toBe('cannot read /nonexistent/radar/tiers.csv: no such file');
  });

  it('explains a port that is taken', async () => {
    const first = net.createServer();
    await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve));
    const { port } = first.address() as net.AddressInfo;
    const second = net.createServer();
    const error = await new Promise<unknown>((resolve) => {
      second.once('error', resolve);
      second.listen(port, '127.0.0.1');
    });
    await new Promise((resolve) => first.close(resolve));
    expect(describeStartupFailure(error)).toBe(
      'cannot listen on the configured HOST/PORT (EADDRINUSE). Stop the other process or set PORT.',
    );
  });

  it('keeps the stack of anything else: that is a bug to report', () => {
    const bug = new TypeError('undefined is not a function');
    expect(describeStartupFailure(bug)).toContain('TypeError: undefined is not a function\n    at ');
  });
});
