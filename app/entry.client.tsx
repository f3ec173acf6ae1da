import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { RequestIdContext, servedRequestId } from "./http/request-id";

// A server error's page shows its request id (entry.server.tsx): read back here, so hydration renders the same.
const requestId = servedRequestId(document);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RequestIdContext.Provider value={requestId}>
        <RemixBrowser />
      </RequestIdContext.Provider>
    </StrictMode>,
  );
});
