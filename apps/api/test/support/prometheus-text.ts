/** One sample of a Prometheus text exposition: metric name, labels, value. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the Prometheus text format (version 0.0.4) into samples; comment and HELP/TYPE lines are skipped. */
export function parsePrometheusText(text: string): PrometheusSample[] {
  const samples: PrometheusSample[] = [];
  for (const line of text.split('\n')) {
    if (line.length === 0 || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name!] = value!.replace(/\\(.)/g, (_all, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/**
 * The value of the sample `name` whose labels are exactly `labels` (undefined when absent). For a histogram
 * `name` is the `_bucket`, `_sum` or `_count` series.
 */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).sort();
  return parsePrometheusText(text).find(
    (sample) => sample.name === name && JSON.stringify(Object.entries(sample.labels).sort()) === JSON.stringify(wanted),
  )?.value;
}

/** Every sample named `name`. */
export function samplesOf(text: string, name: string): PrometheusSample[] {
  return parsePrometheusText(text).filter((sample) => sample.name === name);
}
