import { describe, expect, it } from "vitest";
import { counted, requestsWorking } from "./busy";

describe("counted route handlers", () => {
  it("count from the call until the answer, and after a failure too", async () => {
    let answer!: (r: Response) => void;
    let fail!: (e: Error) => void;
    const ok = counted((_r: Request) => new Promise<Response>((r) => (answer = r)));
    const broken = counted((_r: Request) => new Promise<Response>((_, reject) => (fail = reject)));
    const before = requestsWorking();
    const first = ok(new Request("http://x/"));
    const second = broken(new Request("http://x/"));
    expect(requestsWorking()).toBe(before + 2);
    answer(new Response("done"));
    expect(await (await first).text()).toBe("done");
    expect(requestsWorking()).toBe(before + 1);
    fail(new Error("boom"));
    await expect(second).rejects.toThrow("boom");
    expect(requestsWorking()).toBe(before);
  });
});
