import type { SubBlockConfig } from '@weft/catalog';

/** A slider's range and step, with the catalogue's defaults (0–100; a hundredth of the range, or 1 for integers). */
export interface SliderBounds {
  min: number;
  max: number;
  step: number;
}

/** The bounds a slider field is drawn with. */
export function sliderBounds(field: Pick<SubBlockConfig, 'min' | 'max' | 'step' | 'integer'>): SliderBounds {
  const min = field.min ?? 0;
  const max = field.max ?? 100;
  const step = field.step ?? (field.integer ? 1 : (max - min) / 100);
  return { min, max, step: step > 0 ? step : 1 };
}

/** How many decimals the slider's values have: those of its step or its minimum (at most 6). */
export function sliderDecimals({ min, step }: SliderBounds): number {
  const places = (n: number) => (Number.isInteger(n) ? 0 : (String(n).split('.')[1]?.length ?? 6));
  return Math.min(6, Math.max(places(step), places(min)));
}

/**
 * A number put on the slider as the browser puts a range input's value: within min–max, on the nearest
 * step from min (a step past max goes one back), rounded to the step's decimals so 0.1 steps read 0.3, not 0.30000000000000004.
 */
export function snapToSlider(n: number, bounds: SliderBounds): number {
  const { min, max, step } = bounds;
  const clamped = Math.min(max, Math.max(min, n));
  let steps = Math.round((clamped - min) / step);
  if (min + steps * step > max + step / 1e6) steps -= 1;
  return Number((min + Math.max(0, steps) * step).toFixed(sliderDecimals(bounds)));
}

/** What was typed beside the slider, snapped onto it; null when it is no number (the shown value comes back). */
export function parseSliderText(text: string, bounds: SliderBounds): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? snapToSlider(n, bounds) : null;
}

/** The value a step (or `steps` steps, negative for down) away, kept on the slider. */
export function stepSlider(value: number, steps: number, bounds: SliderBounds): number {
  return snapToSlider(value + steps * bounds.step, bounds);
}
