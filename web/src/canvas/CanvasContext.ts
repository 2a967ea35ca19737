import { createContext } from 'react';

/** What node views need from the editor: resizing containers, and which container a drag is over. */
export interface CanvasActions {
  /** A container's new size, and its new position (relative to its parent) when a top or left edge moved. */
  resize(id: string, width: number, height: number, position: { x: number; y: number }): void;
  dropTarget: string | null;
}

export const CanvasContext = createContext<CanvasActions>({ resize: () => {}, dropTarget: null });
