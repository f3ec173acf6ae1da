import { linkifyText } from "~/utils/linkify";

/** A plain-text email body with its web links clickable. */
export function EmailText({ text }: { text: string }) {
  return (
    <pre className="email-text">
      {linkifyText(text).map((part, index) =>
        part.type === "link" ? (
          <a key={index} href={part.href} rel="noopener noreferrer">
            {part.value}
          </a>
        ) : (
          <span key={index}>{part.value}</span>
        ),
      )}
    </pre>
  );
}
