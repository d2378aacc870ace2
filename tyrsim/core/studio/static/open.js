// "Open scenario": the chosen file's bytes go to /open (the page reads the file, the server no path); its
// answer replaces the controls and the live answer as an edit does, or its one-paragraph problem is shown beside
// the button.
document.addEventListener("DOMContentLoaded", () => {
  const input = document.getElementById("open-scenario");
  const problem = document.getElementById("open-problem");
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    problem.hidden = true;
    problem.removeAttribute("role");
    const answer = await fetch("/open", {method: "POST", body: file, headers: {"Content-Type": "application/toml"}});
    const text = await answer.text();
    input.value = "";  // the same file may be opened again after an edit
    if (!answer.ok) {
      problem.textContent = text;
      problem.setAttribute("role", "alert");  // read out once shown
      problem.hidden = false;
      return;
    }
    htmx.swap("#studio", text, {swapStyle: "innerHTML"});
    const address = answer.headers.get("HX-Push-Url");
    if (address) history.pushState({}, "", address);
  });
});
