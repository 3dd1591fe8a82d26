// Former entry point, kept so old links and cached pages still load: the client starts from
// js/main.js (ES modules, loaded by index.html with <script type="module">).
import "./js/main.js";
