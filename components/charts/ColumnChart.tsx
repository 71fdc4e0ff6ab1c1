import { formatCount } from "../../islands/_parts/format.ts";

/** One column of a {@linkcode ColumnChart}. */
export interface Column {
  /** Short label under the column. */
  label: string;
  /** Its value; the tallest column is the largest value. */
  value: number;
  /** What the column means, in words, for its tooltip and the chart's description. */
  detail: string;
}

/** Props of {@linkcode ColumnChart}. */
export interface ColumnChartProps {
  /** Unique id, for the title and description. */
  id: string;
  /** What the chart shows. */
  title: string;
  /** The columns, left to right. */
  columns: Column[];
}

const WIDTH = 420;
const HEIGHT = 200;
const TOP = 22; // room for the value above the tallest column
const BOTTOM = 26; // room for the labels
const SIDE = 6;

/**
 * A column chart as server-rendered SVG: one column per entry with its value above and its label
 * below, scaled to the largest value. Geometry uses presentation attributes and colours come
 * from CSS classes, so the strict style policy holds.
 */
export function ColumnChart({ id, title, columns }: ColumnChartProps) {
  const max = Math.max(1, ...columns.map((column) => column.value));
  const plot = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - 2 * SIDE) / Math.max(1, columns.length);
  const barWidth = slot * 0.6;
  const baseline = TOP + plot;
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{columns.map((column) => column.detail).join("; ")}</desc>
      <line class="axis" x1={SIDE} y1={baseline} x2={WIDTH - SIDE} y2={baseline} />
      {columns.map((column, i) => {
        const height = round((column.value / max) * plot);
        const center = SIDE + slot * i + slot / 2;
        return (
          <g key={column.label} class="column">
            <rect
              class="bar"
              x={round(center - barWidth / 2)}
              y={round(baseline - height)}
              width={round(barWidth)}
              height={height}
            >
              <title>{column.detail}</title>
            </rect>
            <text class="value" x={round(center)} y={round(baseline - height - 6)}>
              {formatCount(column.value)}
            </text>
            <text class="label" x={round(center)} y={HEIGHT - 8}>{column.label}</text>
          </g>
        );
      })}
    </svg>
  );
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
