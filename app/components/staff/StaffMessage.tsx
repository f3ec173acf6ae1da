import { useEffect, useRef } from "react";
import type { Flash } from "~/staff/session.server";

/** A staff page's one-time message, focused when it appears so a screen reader says it. */
export function StaffMessage({ message }: { message: Flash | null | undefined }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <p
      ref={ref}
      tabIndex={-1}
      className={`notice ${message.kind === "success" ? "notice--success" : "notice--error"} staff-message`}
      role={message.kind === "success" ? "status" : "alert"}
      data-testid="staff-message"
    >
      {message.message}
    </p>
  );
}
