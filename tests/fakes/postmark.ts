import { randomUUID } from "node:crypto";
import { isRecord, startFakeHttpServer, type FakeResponse, type RecordedRequest } from "./fake-http-server";

export type { FakeServer, RecordedRequest } from "./fake-http-server";

/**
 * A local stand-in for Postmark's email API (https://postmarkapp.com/developer/api/email-api):
 * POST /email with an `X-Postmark-Server-Token` header, answered the way Postmark answers.
 * Point the SDK at it with `{ requestHost: fake.host, useHttps: false }`.
 */
export function startFakePostmark() {
  return startFakeHttpServer(answerLikePostmark);
}

/** Postmark's error body; it uses 422 with an ErrorCode for rejected requests. */
export function postmarkError(errorCode: number, message: string, status = 422): FakeResponse {
  return { status, body: { ErrorCode: errorCode, Message: message } };
}

function answerLikePostmark(request: RecordedRequest): FakeResponse {
  if (request.method !== "POST" || request.path !== "/email") {
    return { status: 404, body: { ErrorCode: 404, Message: "Not found." } };
  }
  if (!request.headers["x-postmark-server-token"]) {
    return postmarkError(
      10,
      "No Account or Server API tokens were supplied in the HTTP headers. Please add a header for either X-Postmark-Server-Token or X-Postmark-Account-Token.",
      401,
    );
  }
  if (!isRecord(request.body)) return postmarkError(402, "Received invalid JSON input.");
  const { To, From } = request.body;
  if (typeof From !== "string" || From === "") {
    return postmarkError(300, "Invalid email request: 'From' address is missing.");
  }
  if (typeof To !== "string" || To === "") {
    return postmarkError(300, "Invalid email request: no recipients specified.");
  }
  return {
    status: 200,
    body: { To, SubmittedAt: new Date().toISOString(), MessageID: randomUUID(), ErrorCode: 0, Message: "OK" },
  };
}
