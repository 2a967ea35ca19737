import { createContext } from 'react';

/** What node views need from the editor: resizing containers, and which container a drag is over. */
export interface CanvasActions {
  resize(id: string, width: number, height: number): void;
  dropTarget: string | null;
}

export const CanvasContext = createContext<CanvasActions>({ resize: () => {}, dropTarget: null });
