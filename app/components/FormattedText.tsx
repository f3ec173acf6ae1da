import { renderFormattedText } from "~/services/text/render-formatted-text";

/** Renders generator output (`**bold**`, blank-line paragraphs) as text: no HTML from a model reaches the page. */
export function FormattedText({ text }: { text: string }) {
  const { paragraphs } = renderFormattedText(text);
  return (
    <div className="formatted-text">
      {paragraphs.map((segments, index) => (
        <p key={index}>
          {segments.map((segment, part) =>
            segment.bold ? <strong key={part}>{segment.text}</strong> : <span key={part}>{segment.text}</span>,
          )}
        </p>
      ))}
    </div>
  );
}
