import net from 'node:net';

/** One sample of the Prometheus text format: `name{label="value",...} number`. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** The body as served. */
  text: string;
  samples: MetricSample[];
  /** The value of the one sample with this name whose labels include `labels`; undefined when none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const SAMPLE_LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): Scrape {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    const match = SAMPLE_LINE.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key as string] = value as string;
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return {
    text,
    samples,
    value(name, labels = {}) {
      const found = samples.filter(
        (sample) =>
          sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
      );
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}

/**
 * A port free on 127.0.0.1 right now, for the METRICS_PORT (or PORT) of a process a test starts: 0 would
 * turn the listener off, and parallel test files must never share the default port.
 */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** GET /metrics of a metrics listener over HTTP, parsed. */
export async function scrapeMetrics(port: number): Promise<Scrape> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  return parseMetrics(await response.text());
}

/** Scrapes until `isReady` holds (a job event is handled just after the job's state changes), then returns that scrape. */
export async function scrapeUntil(
  port: number,
  isReady: (scrape: Scrape) => boolean,
  timeoutMs = 30_000,
): Promise<Scrape> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const scraped = await scrapeMetrics(port);
    if (isReady(scraped)) return scraped;
    if (Date.now() > deadline) {
      const appLines = scraped.text.split('\n').filter((line) => /^(radar_|http_)/.test(line));
      throw new Error(`metrics not as expected after ${timeoutMs} ms:\n${appLines.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Scrapes between two equal reads of what a gauge should show (a database count), so a job changing the
 * data meanwhile cannot make the comparison flaky: tries again until the two reads agree.
 */
export async function scrapeBetweenEqualReads<T>(
  read: () => Promise<T>,
  scrape: () => Promise<Scrape>,
  attempts = 10,
): Promise<{ expected: T; scrape: Scrape }> {
  for (let attempt = 1; ; attempt++) {
    const before = await read();
    const scraped = await scrape();
    const after = await read();
    if (JSON.stringify(before) === JSON.stringify(after)) return { expected: before, scrape: scraped };
    if (attempt >= attempts) throw new Error(`the data kept changing across ${attempts} scrapes`);
  }
}
