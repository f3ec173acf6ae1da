import { PassThrough, type Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";

/** React's `pipe` from renderToPipeableStream: writes the document into `destination`, with back-pressure, then ends it. */
export type PipeDocument = (destination: Writable) => void;

const pipes = new WeakMap<Response, PipeDocument>();

/**
 * A rendered document as a Response whose bytes React can write straight into
 * the HTTP response: the store's server takes the pipe (`takeDocumentPipe`)
 * and hands it the socket's writable, so no web stream sits between React and
 * Node (each chunk otherwise goes through a PassThrough, a ReadableStream and a
 * reader's promise, and the compression middleware is flushed per chunk).
 * Whoever reads the Response's body instead (the shared cache keeping a public
 * page, tests calling the Remix handler) gets the same bytes through it; the
 * render starts on the first read. Cancelling the body aborts the render.
 */
export function pipedDocument(pipe: PipeDocument, abort: () => void, init: ResponseInit): Response {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!reader) {
          pipes.delete(response);
          const through = new PassThrough();
          pipe(through);
          reader = createReadableStreamFromReadable(through).getReader();
        }
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel(reason) {
        abort();
        await reader?.cancel(reason);
      },
    },
    // Nothing is rendered until someone reads.
    { highWaterMark: 0 },
  );
  const response = new Response(body, init);
  pipes.set(response, pipe);
  return response;
}

/** The pipe of a document nobody has read yet (once: the caller then owns it), else undefined. */
export function takeDocumentPipe(response: Response): PipeDocument | undefined {
  const pipe = pipes.get(response);
  pipes.delete(response);
  return pipe;
}
