import type { PalaverServer } from '../../src/server.js';

/** One sample line of the Prometheus text format: `name{label="value",...} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Parses the Prometheus text exposition (version 0.0.4) into samples; comment lines (`# HELP`, `# TYPE`) are
 * skipped, label values unescaped. Written here rather than taken from prom-client, so the test reads what a
 * scraper reads, not what the library believes it wrote.
 */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) {
      labels[name!] = value!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** A scrape's samples, with lookups by name and a subset of labels. */
export class Scrape {
  constructor(readonly samples: Sample[]) {}

  /** Samples of `name` whose labels include `labels`. */
  find(name: string, labels: Record<string, string> = {}): Sample[] {
    return this.samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  }

  /** The one sample of `name` with exactly these labels' values (others may vary), 0 when there is none. */
  value(name: string, labels: Record<string, string> = {}): number {
    const found = this.find(name, labels);
    if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
    return found[0]?.value ?? 0;
  }

  has(name: string): boolean {
    return this.samples.some((sample) => sample.name === name);
  }
}

/** `GET /metrics` on the server in process, with `headers` as credentials. */
export function requestMetrics(server: PalaverServer, headers: Record<string, string> = {}): Promise<Response> {
  return server.fetch(new Request('http://palaver.test/metrics', { headers }));
}

/** Scrapes the server with its development API key; fails on anything but 200. */
export async function scrape(server: PalaverServer): Promise<Scrape> {
  const response = await requestMetrics(server, { 'x-api-key': server.apiKey });
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}: ${await response.text()}`);
  return new Scrape(parsePrometheusText(await response.text()));
}
