//! The page with the server stopped: a whole game against the computer on the device (the
//! WebAssembly build in a Web Worker), run when `OTHELLO_WASM_DIR` names the build.

use fantoccini::Client;

use super::{click, persons_turn, screenshots, script, tap, text, until};

/// With the server stopped, a new game against the computer (the dialog's default) is played on
/// the device, by the WebAssembly build in a Web Worker, to its end; its chart is drawn.
pub(super) async fn a_game_against_the_computer(client: &Client) {
    click(client, "#new").await;
    script(
        client,
        "document.querySelector(\"select[name='level']\").value = '1'; return true;",
    )
    .await;
    click(client, "#new-start").await;
    until(
        client,
        "return /^#local-[0-9a-f]{16}$/.test(location.hash) && document.querySelectorAll('button.cell').length === 64 && document.getElementById('notice').textContent.includes('played on this device');",
        "a game on the device",
    )
    .await;
    let mut taps = 0;
    while !persons_turn(client, &format!("the person's move {} offline", taps + 1)).await {
        let square = script(
            client,
            "return document.querySelector(\"button.cell[aria-label*='legal move']\").dataset.square;",
        )
        .await;
        let before = script(
            client,
            "return document.querySelectorAll('#moves li').length;",
        )
        .await;
        tap(client, square.as_str().unwrap()).await;
        until(
            client,
            &format!("return document.querySelectorAll('#moves li').length > {before};"),
            &format!("{square} played offline"),
        )
        .await;
        taps += 1;
    }
    assert!(
        taps >= 10,
        "a whole game offline: {taps} moves by the person"
    );
    let status = text(client, "#status").await;
    assert!(status.starts_with("Game over: "), "{status}");
    until(
        client,
        "return document.querySelector('#chart svg path.line') !== null;",
        "the chart of the offline game",
    )
    .await;
    std::fs::write(
        screenshots().join("serve-390x844-offline.png"),
        client.screenshot().await.unwrap(),
    )
    .unwrap();
}
