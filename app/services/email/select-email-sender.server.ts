import { createOutboxSender } from "./outbox-sender.server";
import { createPostmarkSender } from "./postmark-sender.server";
import type { EmailSender, WriteOutbox } from "./types";

export interface EmailConfig {
  postmarkServerToken?: string;
  emailFrom: string;
  /** `host:port`, or a full `http(s)://host:port`, to reach a Postmark-compatible server (tests). */
  postmarkRequestHost?: string;
}

/** Postmark when its server token is set, otherwise the outbox stand-in. */
export function selectEmailSender(config: EmailConfig, writeOutbox: WriteOutbox): EmailSender {
  const serverToken = config.postmarkServerToken?.trim();
  if (!serverToken) return createOutboxSender(writeOutbox, config.emailFrom);
  return createPostmarkSender({
    serverToken,
    from: config.emailFrom,
    ...(config.postmarkRequestHost ? postmarkConnection(config.postmarkRequestHost) : {}),
  });
}

/**
 * Splits a configured host into what the SDK wants. An explicit scheme wins; without one,
 * only loopback hosts (local fakes) are reached over plain HTTP.
 */
export function postmarkConnection(configuredHost: string): { requestHost: string; useHttps: boolean } {
  if (/^https?:\/\//i.test(configuredHost)) {
    const url = new URL(configuredHost);
    return { requestHost: url.host, useHttps: url.protocol === "https:" };
  }
  const hostname = configuredHost.replace(/:\d+$/, "");
  const isLoopback = ["127.0.0.1", "localhost", "[::1]"].includes(hostname);
  return { requestHost: configuredHost, useHttps: !isLoopback };
}
