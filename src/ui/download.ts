/** Hands `text` to the browser as a file named `fileName` to save. */
export const download = (text: string, fileName: string, type = "text/plain"): void => {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
