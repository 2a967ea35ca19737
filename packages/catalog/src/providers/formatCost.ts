/**
 * Money display (§9): 2 decimals at 1 dollar or more, 3 from 0.01, 4 from 0.001, 6 below.
 * "More below" is read as 6 decimals (a millionth of a dollar, the precision costs are kept at);
 * zero shows as $0.00.
 */
export function formatCost(amount: number): string {
  if (!Number.isFinite(amount)) return '$0.00';
  const size = Math.abs(amount);
  if (size === 0) return '$0.00';
  const decimals = size >= 1 ? 2 : size >= 0.01 ? 3 : size >= 0.001 ? 4 : 6;
  const sign = amount < 0 ? '-' : '';
  return `${sign}$${size.toFixed(decimals)}`;
}
