import { describe, expect, it } from "vitest";
import { csvCell, csvDocument, csvLine, parseCsv } from "./csv";

describe("CSV cells a spreadsheet never runs", () => {
  it.each([
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+1", "'+1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["-x", "'-x"],
    ["\tx", "'\tx"],
    ["-12", "-12"],
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ["two\nlines", '"two\nlines"'],
  ])("%j is written as %j", (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it("joins cells and lines with CRLF", () => {
    expect(csvDocument([csvLine(["a", 1]), csvLine(["b", "=2"])])).toBe("a,1\r\nb,'=2\r\n");
  });
});

describe("reading CSV", () => {
  it("reads quoted cells, doubled quotes, commas and line breaks inside quotes", () => {
    expect(parseCsv('a,"b,c","say ""hi"""\r\n"two\nlines",x\n')).toEqual({
      ok: true,
      records: [
        ["a", "b,c", 'say "hi"'],
        ["two\nlines", "x"],
      ],
    });
  });

  it("makes no empty record of the last line end, and keeps an empty last cell", () => {
    expect(parseCsv("a,b\n")).toEqual({ ok: true, records: [["a", "b"]] });
    expect(parseCsv("a,")).toEqual({ ok: true, records: [["a", ""]] });
    expect(parseCsv("a\r\rb")).toEqual({ ok: true, records: [["a"], [""], ["b"]] });
    expect(parseCsv("")).toEqual({ ok: true, records: [] });
  });

  it("keeps a quote inside an unquoted cell as it is", () => {
    expect(parseCsv('ab"c,d')).toEqual({ ok: true, records: [['ab"c', "d"]] });
  });

  it("refuses a quoted cell that is never closed, naming its row", () => {
    expect(parseCsv('a\nb,"open\nc')).toEqual({
      ok: false,
      message: expect.stringContaining("Row 2 has a quoted cell that is never closed"),
    });
  });

  it("stops reading once past maxRecords", () => {
    const parsed = parseCsv("1\n2\n3\n4\n5\n", { maxRecords: 2 });
    expect(parsed.ok && parsed.records.length).toBe(3);
  });
});
