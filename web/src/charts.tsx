import { formatCount, formatDay } from './numbers';
import './charts.css';

/** One bar: a label (a UTC day) and its stacked values, in the order of the chart's series. */
export interface BarDatum {
  day: string;
  values: number[];
}

export interface Series {
  label: string;
  /** A class on the series' rects and legend swatch (colours live in charts.css). */
  className: string;
}

const WIDTH = 720;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 12, bottom: 36, left: 48 };
/** At most this many labels on the day axis; the others are skipped so labels never overlap. */
const MAX_DAY_LABELS = 10;

/** Round steps for the count axis (1, 2, 5 × 10^n) so the ticks read as whole, grouped numbers. */
export function niceTicks(max: number, count = 4): number[] {
  if (max <= 0) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const whole = Math.max(1, Math.round(step));
  const ticks: number[] = [];
  for (let t = 0; t < max + whole; t += whole) ticks.push(t);
  return ticks;
}

/**
 * A stacked bar chart of daily counts, drawn as SVG: bars with heights in proportion, a count axis with
 * grouped numbers and gridlines, a day axis with dates in the user's locale, and a legend. The numbers
 * are also in a table for screen readers (and anyone who wants them exact).
 */
export function DailyBarChart({
  title,
  data,
  series,
}: {
  title: string;
  data: BarDatum[];
  series: Series[];
}) {
  const totals = data.map((d) => d.values.reduce((a, b) => a + b, 0));
  const ticks = niceTicks(Math.max(0, ...totals));
  const top = ticks.at(-1) ?? 1;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotW / Math.max(1, data.length);
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => MARGIN.top + plotH - (v / top) * plotH;
  const labelEvery = Math.ceil(data.length / MAX_DAY_LABELS);
  return (
    <figure class="bar-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={title} data-testid="bar-chart">
        {ticks.map((t) => (
          <g key={t} class="tick">
            <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(t)} y2={y(t)} />
            <text x={MARGIN.left - 6} y={y(t)} dy="0.32em" text-anchor="end">
              {formatCount(t)}
            </text>
          </g>
        ))}
        {data.map((d, i) => {
          const x = MARGIN.left + i * slot + (slot - barW) / 2;
          let base = 0;
          return (
            <g key={d.day} data-day={d.day}>
              <title>{`${formatDay(d.day, { dateStyle: 'medium' })}: ${series.map((s, k) => `${formatCount(d.values[k] ?? 0)} ${s.label}`).join(', ')}`}</title>
              {d.values.map((v, k) => {
                if (v <= 0) return null;
                const rect = (
                  <rect
                    key={series[k]?.label}
                    class={`bar ${series[k]?.className ?? ''}`}
                    x={x}
                    width={barW}
                    y={y(base + v)}
                    height={y(base) - y(base + v)}
                  />
                );
                base += v;
                return rect;
              })}
              {i % labelEvery === 0 && (
                <text class="day" x={x + barW / 2} y={HEIGHT - MARGIN.bottom + 16} text-anchor="middle">
                  {formatDay(d.day)}
                </text>
              )}
            </g>
          );
        })}
        <line class="axis" x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(0)} y2={y(0)} />
      </svg>
      <figcaption>
        <ul class="legend">
          {series.map((s) => (
            <li key={s.label}>
              <span class={`swatch ${s.className}`} aria-hidden="true" /> {s.label}
            </li>
          ))}
        </ul>
      </figcaption>
      {/* In a clipped box: a table is never narrower than its content, so alone it would widen the page. */}
      <div class="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th key={s.label} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((d) => (
              <tr key={d.day}>
                <th scope="row">{formatDay(d.day, { dateStyle: 'medium' })}</th>
                {series.map((s, k) => (
                  <td key={s.label}>{formatCount(d.values[k] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
