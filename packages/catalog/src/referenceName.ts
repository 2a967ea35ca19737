/** How a block's name is written in a reference (`<agent1.content>`): lowercased, spaces removed. */
export function referenceName(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '');
}
