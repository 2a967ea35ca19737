// `@weft/workflow/layout`: apart from the root entry so that importing `@weft/workflow` (as the web app does) never loads elkjs.
export { elkLayout } from './elk.layout.js';
