import { DATE_FILTER_LABELS, type DateFilterLabel, isDateFilterLabel, RECOMMENDATION_SLIDERS } from '@radar/shared';

/**
 * Rules shared by the paper and news recommendation settings: the sliders'
 * ranges, the cumulative date filter, and reading/writing the settings in localStorage.
 */

const UNLIMITED_DATE_FILTER: DateFilterLabel = '不限';

type SliderRange = { min: number; max: number; step: number };

/** How a value between two steps of a slider's grid lands on it. */
export type SnapDirection = 'nearest' | 'down' | 'up';

// A hair of tolerance, so 0.25 (3.9999… steps of 0.05 above 0.05) counts as on the grid.
const STEP_ROUNDING: Record<SnapDirection, (steps: number) => number> = {
  nearest: Math.round,
  down: (steps) => Math.floor(steps + 1e-9),
  up: (steps) => Math.ceil(steps - 1e-9),
};

/**
 * A value on a slider's grid: the nearest step (or the one below or above) within [min, max], rounded
 * to 2 decimals so 0.15 is not stored as 0.15000000000000002; anything that is not a finite number
 * gives `fallback`.
 */
export function snapToSlider(
  value: unknown,
  range: SliderRange,
  fallback: number,
  direction: SnapDirection = 'nearest',
): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  const steps = STEP_ROUNDING[direction]((value - range.min) / range.step);
  const snapped = range.min + steps * range.step;
  return Math.round(Math.min(range.max, Math.max(range.min, snapped)) * 100) / 100;
}

export function normaliseTopK(value: unknown, fallback: number): number {
  return snapToSlider(value, RECOMMENDATION_SLIDERS.topK, fallback);
}

export function normaliseThreshold(value: unknown, fallback: number): number {
  return snapToSlider(value, RECOMMENDATION_SLIDERS.threshold, fallback);
}

const orderOf = (label: DateFilterLabel) => DATE_FILTER_LABELS.indexOf(label);
const inOrder = (labels: Iterable<DateFilterLabel>) => [...new Set(labels)].sort((a, b) => orderOf(a) - orderOf(b));

/**
 * Ticking or unticking one date range. Ticking a range selects it and every shorter
 * one; unticking removes it and every longer one; 不限 is exclusive (ticking it leaves only 不限, ticking
 * anything else removes it). An empty selection means no date limit, like 不限.
 */
export function toggleDateFilter(
  selected: readonly DateFilterLabel[],
  label: DateFilterLabel,
  checked: boolean,
): DateFilterLabel[] {
  if (label === UNLIMITED_DATE_FILTER) return checked ? [UNLIMITED_DATE_FILTER] : [];
  const ranges = DATE_FILTER_LABELS.filter((value) => value !== UNLIMITED_DATE_FILTER);
  const index = ranges.indexOf(label);
  // The rule acts on what the boxes show (shownDateFilter), so unticking 两天内 under a stored 一周内 keeps 一天内.
  const kept = shownDateFilter(selected).filter((value) => value !== UNLIMITED_DATE_FILTER);
  if (checked) return inOrder([...kept, ...ranges.slice(0, index + 1)]);
  const removed = new Set(ranges.slice(index));
  return inOrder(kept.filter((value) => !removed.has(value)));
}

/**
 * The ranges shown ticked: the widest selected one and every shorter one, as the cumulative rule says,
 * even when the selection names only the widest (the spec's default ['一周内'], a stored or linked
 * selection); 不限 or nothing as it is. The query still sends the selection as it is: the server applies
 * the widest range either way.
 */
export function shownDateFilter(selected: readonly DateFilterLabel[]): DateFilterLabel[] {
  const widest = effectiveDateFilter(selected);
  if (widest === UNLIMITED_DATE_FILTER) return [...selected];
  return DATE_FILTER_LABELS.slice(0, orderOf(widest) + 1);
}

/**
 * The range that applies (the widest ticked one, since the server applies the widest), for the chip;
 * 不限 for 不限 or nothing ticked.
 */
export function effectiveDateFilter(selected: readonly DateFilterLabel[]): DateFilterLabel {
  if (selected.length === 0 || selected.includes(UNLIMITED_DATE_FILTER)) return UNLIMITED_DATE_FILTER;
  return inOrder(selected).at(-1) ?? UNLIMITED_DATE_FILTER;
}

/**
 * A stored date selection, kept only if it is a list of known labels (in order, without repeats, 不限
 * alone); anything else gives `fallback`.
 */
export function parseDateFilterSelection(value: unknown, fallback: readonly DateFilterLabel[]): DateFilterLabel[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && isDateFilterLabel(item))) {
    return [...fallback];
  }
  const labels = inOrder(value as DateFilterLabel[]);
  return labels.includes(UNLIMITED_DATE_FILTER) ? [UNLIMITED_DATE_FILTER] : labels;
}

/**
 * The `date_filter` query value: the labels comma-joined, and '' (not left out) for an empty selection,
 * because the API reads a missing date_filter as its default (一周内) and an empty one as 不限.
 */
export function dateFilterQueryValue(selected: readonly DateFilterLabel[]): string {
  return inOrder(selected).join(',');
}

/** The settings both pages share, under the names the settings use. */
type SharedParams = { topK: number; threshold: number; dateFilter: DateFilterLabel[] };

/** A number sent as a query value; NaN for anything else (the normalisers then keep the current value). */
const parseQueryNumber = (value: string): number => (value.trim() === '' ? Number.NaN : Number(value));

/**
 * A date_filter query value (labels comma-joined, '' for no limit) as the settings' selection: the
 * widest range with every shorter one ticked, as ticking it would; null when it names no known range.
 */
export function parseDateFilterQuery(value: string): DateFilterLabel[] | null {
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) return [UNLIMITED_DATE_FILTER];
  if (!parts.every(isDateFilterLabel)) return null;
  return toggleDateFilter([], effectiveDateFilter(parts), true);
}

/**
 * The settings with an API suggestion merged in (an empty result's `change`, in query names: top_k,
 * similarity_threshold, date_filter). The settings hold only values on the sliders' grid, so a value
 * between two steps goes to the step that keeps the suggestion's promise: a threshold down (0.24 ->
 * 0.2), a count up; unreadable values and other names leave the setting as it is.
 */
export function mergeSharedParamsChange<T extends SharedParams>(params: T, change: Record<string, string>): T {
  const next = { ...params };
  if (change.top_k !== undefined) {
    next.topK = snapToSlider(parseQueryNumber(change.top_k), RECOMMENDATION_SLIDERS.topK, params.topK, 'up');
  }
  if (change.similarity_threshold !== undefined) {
    const threshold = parseQueryNumber(change.similarity_threshold);
    next.threshold = snapToSlider(threshold, RECOMMENDATION_SLIDERS.threshold, params.threshold, 'down');
  }
  if (change.date_filter !== undefined) next.dateFilter = parseDateFilterQuery(change.date_filter) ?? params.dateFilter;
  return next;
}

/**
 * The chip 含已评价 (beyond the spec) as a settings field: present (true) only when on, so a stored object
 * without it, or with anything but true, reads as off.
 */
function includeRatedField(value: unknown): { includeRated?: true } {
  return value === true ? { includeRated: true } : {};
}

/** include_rated for a recommendation query: 'true' when on, left out otherwise (the spec's query). */
function includeRatedQuery(includeRated: boolean | undefined): { include_rated?: 'true' } {
  return includeRated ? { include_rated: 'true' } : {};
}

/** The settings both pages store: the shared ones and the chip 含已评价. */
type StoredSharedParams = SharedParams & { includeRated?: boolean };

/** One page's defaults of the shared settings (its `*_RECOMMENDATION_DEFAULTS`). */
type SharedDefaults = { topK: number; threshold: number; dateFilter: readonly DateFilterLabel[] };

/**
 * The shared settings of a stored object, each checked on its own: a missing or invalid field (edited by
 * hand, an older version) takes its default and the others are kept.
 */
export function parseSharedParams(stored: Record<string, unknown>, defaults: SharedDefaults): StoredSharedParams {
  return {
    topK: normaliseTopK(stored.topK, defaults.topK),
    threshold: normaliseThreshold(stored.threshold, defaults.threshold),
    dateFilter: parseDateFilterSelection(stored.dateFilter, defaults.dateFilter),
    ...includeRatedField(stored.includeRated),
  };
}

/**
 * The settings with the sliders' values on their grid (a slider's keyboard step gives 0.44999999999999996),
 * and 含已评价 present only when on.
 */
function normaliseSharedParams<T extends StoredSharedParams>(params: T, defaults: SharedDefaults): T {
  const { includeRated, ...rest } = params;
  return {
    ...rest,
    topK: normaliseTopK(params.topK, defaults.topK),
    threshold: normaliseThreshold(params.threshold, defaults.threshold),
    ...includeRatedField(includeRated),
  } as T;
}

/**
 * The shared part of a recommendation query. An empty date selection is sent as an empty value (no
 * limit), not left out, which the API would read as its default (一周内); include_rated only when on,
 * so a backend that knows only the spec gets exactly the spec's query.
 */
export function sharedParamsQuery(params: StoredSharedParams, defaults: SharedDefaults) {
  const { topK, threshold } = normaliseSharedParams(params, defaults);
  return {
    top_k: topK,
    similarity_threshold: threshold,
    date_filter: dateFilterQueryValue(params.dateFilter),
    ...includeRatedQuery(params.includeRated),
  };
}

/** localStorage, or null where it does not exist or is blocked (private modes, Node). */
export function getLocalStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** A stored JSON object, or null when missing, unreadable or not an object. */
export function readStoredObject(storage: Storage | null, key: string): Record<string, unknown> | null {
  const raw = storage?.getItem(key);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Stores a value as JSON; a full or blocked storage only loses the persistence, never the page. */
export function writeStoredObject(storage: Storage | null, key: string, value: object): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // Quota exceeded or storage disabled: the settings still apply for this visit.
  }
}

/**
 * One page's stored settings: normalised (normaliseSharedParams), loaded through the page's own parser and
 * saved normalised, under the page's localStorage key. A missing storage (private modes, Node) reads as
 * nothing stored and saves nothing.
 */
export function storedRecommendationParams<T extends StoredSharedParams>(
  key: string,
  defaults: SharedDefaults,
  parse: (stored: Record<string, unknown> | null) => T,
) {
  const normalise = (params: T): T => normaliseSharedParams(params, defaults);
  return {
    normalise,
    load: (storage: Storage | null = getLocalStorage()): T => parse(readStoredObject(storage, key)),
    save: (params: T, storage: Storage | null = getLocalStorage()): void =>
      writeStoredObject(storage, key, normalise(params)),
  };
}
