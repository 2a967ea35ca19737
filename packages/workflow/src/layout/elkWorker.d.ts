/** The synchronous in-process ELK worker bundled with elkjs (not covered by its own typings). */
declare module 'elkjs/lib/elk-worker.min.js' {
  type ElkMessage = { data: unknown };
  interface ElkWorker {
    onmessage: (message: ElkMessage) => void;
    dispatcher: { saveDispatch(message: ElkMessage): void };
  }
  const elkWorker: { Worker: new () => ElkWorker };
  export default elkWorker;
}
