import { describe, expect, it } from 'vitest';
import { parseSliderText, sliderBounds, sliderDecimals, snapToSlider, stepSlider } from './slider';

const temperature = sliderBounds({ min: 0, max: 2, step: 0.1 });

describe('the slider’s typed value', () => {
  it('takes a number within the range as typed', () => {
    expect(parseSliderText('1.3', temperature)).toBe(1.3);
    expect(parseSliderText(' 0 ', temperature)).toBe(0);
    expect(parseSliderText('2', temperature)).toBe(2);
  });

  it('clamps a number outside the range to its nearer end', () => {
    expect(parseSliderText('5', temperature)).toBe(2);
    expect(parseSliderText('-1', temperature)).toBe(0);
    expect(parseSliderText('1e9', temperature)).toBe(2);
  });

  it('puts a number between steps on the nearest step, without float noise', () => {
    expect(parseSliderText('0.74', temperature)).toBe(0.7);
    expect(parseSliderText('0.76', temperature)).toBe(0.8);
    expect(parseSliderText('0.3', temperature)).toBe(0.3);
    // A decimal comma is read as a point.
    expect(parseSliderText('1,4', temperature)).toBe(1.4);
  });

  it('answers null for what is no number, so the shown value comes back', () => {
    expect(parseSliderText('', temperature)).toBeNull();
    expect(parseSliderText('warm', temperature)).toBeNull();
    expect(parseSliderText('Infinity', temperature)).toBeNull();
  });

  it('keeps steps counted from the minimum, and never past the maximum', () => {
    const odd = sliderBounds({ min: 1, max: 10, step: 2 });
    expect(snapToSlider(4, odd)).toBe(5);
    expect(snapToSlider(10, odd)).toBe(9);
    expect(snapToSlider(100, odd)).toBe(9);
    const integer = sliderBounds({ min: 0, max: 10, integer: true });
    expect(integer.step).toBe(1);
    expect(parseSliderText('3.6', integer)).toBe(4);
  });

  it('steps up and down by the field’s step, stopping at the ends', () => {
    expect(stepSlider(0.7, 1, temperature)).toBe(0.8);
    expect(stepSlider(0.7, -3, temperature)).toBe(0.4);
    expect(stepSlider(2, 1, temperature)).toBe(2);
    expect(stepSlider(0, -1, temperature)).toBe(0);
  });

  it('shows as many decimals as the step has, and defaults to 0–100 in hundredths of the range', () => {
    expect(sliderDecimals(temperature)).toBe(1);
    expect(sliderDecimals(sliderBounds({ min: 0, max: 1, step: 0.05 }))).toBe(2);
    expect(sliderBounds({})).toEqual({ min: 0, max: 100, step: 1 });
    expect(sliderDecimals(sliderBounds({ min: 0, max: 1 }))).toBe(2);
  });
});
